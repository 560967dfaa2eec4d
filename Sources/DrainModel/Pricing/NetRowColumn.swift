import DrainTrace

/// A column over a timeline's rows that stores values for its `net` rows only: every other
/// row reads as `defaultValue`. For per-event results of the radios (`RadioAttribution`), which
/// a trace with few `net` events among millions would otherwise hold for every row.
///
/// A row's place among the `net` rows is found in O(1): one bit per row says whether it is a
/// `net` row, and a count per 64 rows says how many came before. Memory: the values, plus
/// about 0.19 bytes per row.
public struct NetRowColumn<Element: Sendable>: RandomAccessCollection, Sendable {
    private let isNet: [UInt64]
    private let netBefore: [UInt32]
    private var values: [Element]
    private let defaultValue: Element

    /// All rows of `timeline` at `defaultValue`. O(rows / 64) plus a scan of the kind column.
    ///
    /// - Precondition: fewer than 2³² rows.
    init(_ timeline: Timeline, defaultValue: Element) {
        precondition(timeline.count < Int(UInt32.max), "a column numbers its net rows in 32 bits")
        var isNet = [UInt64](repeating: 0, count: (timeline.count + 63) / 64)
        var netBefore = [UInt32](repeating: 0, count: isNet.count)
        var running: UInt32 = 0
        for word in isNet.indices {
            netBefore[word] = running
            var bits: UInt64 = 0
            for row in word * 64..<Swift.min(timeline.count, word * 64 + 64) where timeline.kind[row] == .net {
                bits |= 1 << UInt64(row & 63)
            }
            isNet[word] = bits
            running += UInt32(bits.nonzeroBitCount)
        }
        self.isNet = isNet
        self.netBefore = netBefore
        self.defaultValue = defaultValue
        values = [Element](repeating: defaultValue, count: Int(running))
        count = timeline.count
    }

    /// The rows of `other` at `defaultValue`, sharing its index of `net` rows. O(net rows).
    init<Other>(sameRowsAs other: NetRowColumn<Other>, defaultValue: Element) {
        isNet = other.isNet
        netBefore = other.netBefore
        self.defaultValue = defaultValue
        values = [Element](repeating: defaultValue, count: other.values.count)
        count = other.count
    }

    public let count: Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The place of `row` among the `net` rows, or nil for another kind. O(1).
    private func slot(_ row: Int) -> Int? {
        let word = isNet[row >> 6]
        let bit: UInt64 = 1 << UInt64(row & 63)
        guard word & bit != 0 else { return nil }
        return Int(netBefore[row >> 6]) + (word & (bit - 1)).nonzeroBitCount
    }

    /// The value of `row`: its own for a `net` row, `defaultValue` for any other. O(1).
    public subscript(row: Int) -> Element {
        get { slot(row).map { values[$0] } ?? defaultValue }
        set {
            guard let slot = slot(row) else { preconditionFailure("row \(row) is not a net row") }
            values[slot] = newValue
        }
    }
}

extension NetRowColumn: Equatable where Element: Equatable {}
