/// A column that stores only the values that differ from its default: a payload column that
/// some event kinds leave unused (`Timeline.thread`, `amount`, `amount2`, `duration`, `value`,
/// `value2`, `label2`, `input`) costs 0.19 bytes per row left at the default, not the size of
/// a value.
///
/// Reads are O(1) (`RowSet`); appends amortised O(1). A value is "the default" when it is the
/// same bit for bit (`-0.0` is kept apart from `0.0`).
public struct SparseColumn<Element: SparseColumnElement>: RandomAccessCollection, Sendable, Equatable {
    public let defaultValue: Element
    // Visible to inlined code, so that reads are specialised in the modules that make them.
    @usableFromInline internal var stored = RowSet()
    @usableFromInline internal var values: [Element] = []

    /// An empty column whose absent values read as `defaultValue`.
    public init(defaultValue: Element) {
        self.defaultValue = defaultValue
    }

    /// The elements of `elements`, in order.
    public init(_ elements: some Sequence<Element>, defaultValue: Element) {
        self.defaultValue = defaultValue
        append(contentsOf: elements)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { stored.count }

    /// The value of `row`. O(1).
    @inlinable
    public subscript(row: Int) -> Element {
        if let place = stored.place(of: row) { return values[place] }
        return defaultValue
    }

    public mutating func reserveCapacity(_ rows: Int) {
        stored.reserveCapacity(rows)
    }

    /// Whether every row holds `value`: O(1) for the default, O(stored values) for another.
    public func isEvery(_ value: Element) -> Bool {
        if value.isIdentical(to: defaultValue) { return stored.memberCount == 0 }
        return stored.memberCount == stored.count && values.allSatisfy { $0.isIdentical(to: value) }
    }

    /// Gives back the room the stored values grew beyond their count (`Array.releaseUnusedCapacity`).
    public mutating func releaseUnusedCapacity() {
        values.releaseUnusedCapacity()
    }

    /// Appends every row of `other`, each value through `transform`, and empties `other`: the
    /// stored values take one allocation of their exact size instead of doubling, and none of
    /// `other`'s storage is kept. When both columns have the same default and `transform` keeps
    /// every stored value apart from it, `other`'s row set is appended a word at a time and its
    /// values in one pass: O(other.count / 64 + stored values); otherwise row by row, O(other.count).
    public mutating func append(movingRowsOf other: inout SparseColumn, transform: (Element) -> Element = { $0 }) {
        values.reserveCapacity(values.count + other.values.count)
        let start = values.count
        var bulk = other.defaultValue.isIdentical(to: defaultValue)
        if bulk {
            for value in other.values {
                let moved = transform(value)
                if moved.isIdentical(to: defaultValue) {
                    bulk = false
                    break
                }
                values.append(moved)
            }
        }
        if bulk {
            stored.append(contentsOf: other.stored)
        } else {
            values.removeSubrange(start...)
            stored.reserveCapacity(stored.count + other.count)
            for element in other { append(transform(element)) }
        }
        other = SparseColumn(defaultValue: other.defaultValue)
    }

    /// Appends one value. Amortised O(1).
    @inlinable
    public mutating func append(_ value: Element) {
        let kept = !value.isIdentical(to: defaultValue)
        stored.append(kept)
        if kept { values.append(value) }
    }

    /// Appends the values of `elements` and leaves it empty: a column whose every value is kept
    /// (a capture's bytes) takes the array over when it holds none yet. O(elements.count).
    public mutating func append(movingContentsOf elements: inout [Element]) {
        let defaultValue = defaultValue
        let before = stored.memberCount
        elements.withUnsafeBufferPointer { buffer in
            stored.append(count: buffer.count) { !buffer[$0].isIdentical(to: defaultValue) }
        }
        let added = stored.memberCount - before
        if values.isEmpty, added == elements.count {
            swap(&values, &elements)
        } else {
            values.reserveCapacity(values.count + added)
            for value in elements where !value.isIdentical(to: defaultValue) { values.append(value) }
        }
        elements = []
    }

    /// Appends `value` `count` times. O(count / 64) for the default value, O(count) otherwise.
    public mutating func append(repeating value: Element, count: Int) {
        let kept = !value.isIdentical(to: defaultValue)
        stored.append(repeating: kept, count: count)
        if kept { values.append(contentsOf: repeatElement(value, count: count)) }
    }

    public mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// The column's values taken in `order` (positions of this column). O(order.count).
    public func permuted(_ order: [Int]) -> SparseColumn {
        SparseColumn(order.lazy.map { self[$0] }, defaultValue: defaultValue)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.isIdentical(to: $1) }
    }
}

/// A value a `SparseColumn` can tell apart from its default, bit for bit.
public protocol SparseColumnElement: Sendable {
    func isIdentical(to other: Self) -> Bool
}

extension Int64: SparseColumnElement {
    @inlinable public func isIdentical(to other: Int64) -> Bool { self == other }
}

extension UInt32: SparseColumnElement {
    @inlinable public func isIdentical(to other: UInt32) -> Bool { self == other }
}

extension UInt16: SparseColumnElement {
    @inlinable public func isIdentical(to other: UInt16) -> Bool { self == other }
}

extension Double: SparseColumnElement {
    @inlinable public func isIdentical(to other: Double) -> Bool { bitPattern == other.bitPattern }
}

extension SparseColumn where Element: Equatable {
    /// Whether the column holds `values`, in order.
    public static func == (column: SparseColumn, values: [Element]) -> Bool {
        column.elementsEqual(values)
    }
}
