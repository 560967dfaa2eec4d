import DrainTrace

/// A column over a timeline's rows that stores values for its `net` rows only: every other
/// row reads as `defaultValue`. For per-event results of the radios (`RadioAttribution`), which
/// a trace with few `net` events among millions would otherwise hold for every row.
///
/// A row's place among the `net` rows is found in O(1) (`RowSet`). Memory: the values, plus
/// about 0.19 bytes per row.
public struct NetRowColumn<Element: Sendable>: RandomAccessCollection, Sendable {
    // Visible to inlined code, so that the rules' reads are specialised where they are made.
    @usableFromInline internal let netRows: RowSet
    @usableFromInline internal var values: [Element]
    @usableFromInline internal let defaultValue: Element

    /// All rows of `timeline` at `defaultValue`. O(rows).
    ///
    /// - Precondition: fewer than 2³² rows.
    init(_ timeline: Timeline, defaultValue: Element) {
        netRows = RowSet(count: timeline.count) { timeline.kind[$0] == .net }
        self.defaultValue = defaultValue
        values = [Element](repeating: defaultValue, count: netRows.memberCount)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { netRows.count }

    /// The value of `row`: its own for a `net` row, `defaultValue` for any other. O(1).
    @inlinable
    public subscript(row: Int) -> Element {
        get { netRows.place(of: row).map { values[$0] } ?? defaultValue }
        set {
            guard let place = netRows.place(of: row) else { preconditionFailure("row \(row) is not a net row") }
            values[place] = newValue
        }
    }
}

extension NetRowColumn: Equatable where Element: Equatable {}

/// Flags over a timeline's rows, a bit for each `net` row: every other row reads as false. For
/// what a radio's packet did (`RadioAttribution.wokeRadio`), where a byte per row would be 8
/// times the room.
public struct NetRowFlags: RandomAccessCollection, Sendable, Equatable {
    @usableFromInline internal let netRows: RowSet
    /// The flag of the `net` row at place p is bit p % 64 of word p / 64.
    @usableFromInline internal var words: [UInt64]

    /// All rows of `column` false, sharing its set of `net` rows. O(net rows / 64).
    init<Element>(sameRowsAs column: NetRowColumn<Element>) {
        netRows = column.netRows
        words = [UInt64](repeating: 0, count: (netRows.memberCount + 63) / 64)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { netRows.count }

    /// The flag of `row`: its own for a `net` row, false for any other. O(1).
    @inlinable
    public subscript(row: Int) -> Bool {
        guard let place = netRows.place(of: row) else { return false }
        return words[place >> 6] & (1 << UInt64(place & 63)) != 0
    }

    /// Raises the flag of `row`. O(1).
    ///
    /// - Precondition: `row` is a `net` row.
    mutating func raise(_ row: Int) {
        guard let place = netRows.place(of: row) else { preconditionFailure("row \(row) is not a net row") }
        words[place >> 6] |= 1 << UInt64(place & 63)
    }
}
