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

    /// The rows of `other` at `defaultValue`, sharing its set of `net` rows. O(net rows).
    init<Other>(sameRowsAs other: NetRowColumn<Other>, defaultValue: Element) {
        netRows = other.netRows
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
