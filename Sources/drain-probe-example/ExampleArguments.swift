/// `drain-probe-example --out FILE [--seconds N]`.
struct ExampleArguments {
    static let usage = "usage: drain-probe-example --out FILE [--seconds N]   (N > 0, default 3)"

    /// Where the trace goes.
    var output: String
    /// How long the example runs, in seconds.
    var seconds: Double = 3

    /// Parses the arguments after the program name; `nil` if they are not valid.
    init?(_ arguments: [String]) {
        var output: String?
        var remaining = arguments[...]
        while let name = remaining.popFirst() {
            guard let value = remaining.popFirst() else { return nil }
            switch name {
            case "--out":
                output = value
            case "--seconds":
                guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 3600 else { return nil }
                self.seconds = seconds
            default:
                return nil
            }
        }
        guard let output, !output.isEmpty else { return nil }
        self.output = output
    }
}
