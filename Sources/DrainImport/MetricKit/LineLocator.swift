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
        var low = 0, high = lineStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        return LineError.location(line: low + 1, offset: offset - lineStarts[low])
    }
}
