#if os(Linux)
/// `/proc/net/dev`: two header lines, then one line per interface,
/// `  name: rx_bytes rx_packets … (8 receive fields) tx_bytes …`.
public enum NetDevParser {
    /// Calls `body` with each interface's name (the bytes before `:`, without blanks) and
    /// its received and transmitted byte counters. Lines that are not interface lines are
    /// skipped. O(n), no allocation.
    public static func forEachInterface(
        _ bytes: UnsafeRawBufferPointer, _ body: (_ name: UnsafeRawBufferPointer, _ received: Int64, _ transmitted: Int64) -> Void
    ) {
        ProcText.forEachLine(bytes) { line in
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
            var nameStart = 0
            while nameStart < colon, ProcText.isBlank(line[nameStart]) { nameStart += 1 }
            guard nameStart < colon else { return }
            var index = colon + 1
            var fields: (received: Int64, transmitted: Int64) = (0, 0)
            for position in 0..<9 {
                guard let (value, end) = ProcText.number(line, from: index) else { return }
                if position == 0 { fields.received = value }
                if position == 8 { fields.transmitted = value }
                index = end
            }
            body(UnsafeRawBufferPointer(rebasing: line[nameStart..<colon]), fields.received, fields.transmitted)
        }
    }
}
#endif
