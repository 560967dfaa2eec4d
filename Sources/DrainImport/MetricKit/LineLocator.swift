import Algorithms

/// Turns byte offsets of a whole file into `line L, column C` for messages.
struct LineLocator {
    /// The offset of the first byte of each line.
    private let lineStarts: [Int]

    /// Indexes the newlines of `bytes`. O(n).
    init(_ bytes: [UInt8]) {
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == ASCII.newline { starts.append(index + 1) }
        lineStarts = starts
    }

    /// `line L, column C` (both 1-based, the column counted in bytes) of `offset`. O(log lines).
    func location(_ offset: Int) -> String {
        // The last line starting at or before `offset` (line 0 starts at 0).
        let line = max(0, lineStarts.partitioningIndex { $0 > offset } - 1)
        return LineError.location(line: line + 1, offset: offset - lineStarts[line])
    }
}
