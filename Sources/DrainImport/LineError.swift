/// What is wrong with one line, and where: the byte offset in the line (0-based).
///
/// Built only when a line is rejected, so its message may be a `String`.
struct LineError: Error {
    var offset: Int
    var message: String
    /// The line ended where more JSON was expected: the signature of a cut-off write.
    var isCutOff: Bool

    init(at offset: Int, _ message: String, cutOff: Bool = false) {
        self.offset = offset
        self.message = message
        self.isCutOff = cutOff
    }

    /// `line L, column C`, both 1-based, the column counted in bytes.
    func location(line: Int) -> String {
        LineError.location(line: line, offset: offset)
    }

    static func location(line: Int, offset: Int) -> String {
        "line \(line), column \(offset + 1)"
    }
}
