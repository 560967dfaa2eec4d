#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// Times a piece of work over several runs and reports the median rate.
struct Measurement {
    let name: String
    /// Items (events, bytes) processed by one run.
    let items: Int
    let unit: String

    /// Runs `body` once to warm caches, then `repeats` times; prints and returns the median
    /// items per second.
    @discardableResult
    func run(repeats: Int, _ body: () -> Void) -> Double {
        body()
        var seconds: [Double] = []
        for _ in 0..<max(1, repeats) {
            let start = ContinuousClock.now
            body()
            let elapsed = ContinuousClock.now - start
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        seconds.sort()
        let median = seconds[seconds.count / 2]
        let rate = Double(items) / median
        print("\(name): \(format(rate)) \(unit)/s (median of \(seconds.count) runs, \(format(median * 1000)) ms per run)")
        return rate
    }

    private func format(_ value: Double) -> String {
        if value >= 1e9 { return String(Int((value / 1e7).rounded())).inserting(".", at: -2) + " G" }
        if value >= 1e6 { return String(Int((value / 1e4).rounded())).inserting(".", at: -2) + " M" }
        return String(Int(value.rounded()))
    }
}

/// Reads `--name value` from an argument list.
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

extension String {
    fileprivate func inserting(_ character: Character, at offsetFromEnd: Int) -> String {
        var copy = self
        while copy.count < -offsetFromEnd + 1 { copy = "0" + copy }
        copy.insert(character, at: copy.index(copy.endIndex, offsetBy: offsetFromEnd))
        return copy
    }
}
