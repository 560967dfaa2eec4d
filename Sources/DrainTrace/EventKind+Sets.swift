/// A set of event kinds, one bit per kind: rules test membership for every row, and a
/// `Set<EventKind>` would hash the kind each time.
public struct EventKindSet: Sendable, Equatable, ExpressibleByArrayLiteral {
    private var bits: UInt64 = 0

    public init(arrayLiteral kinds: EventKind...) {
        for kind in kinds { insert(kind) }
    }

    public mutating func insert(_ kind: EventKind) {
        bits |= 1 << UInt64(kind.rawValue & 63)
    }

    /// O(1), no hashing.
    @inline(__always)
    public func contains(_ kind: EventKind) -> Bool {
        bits & (1 << UInt64(kind.rawValue & 63)) != 0
    }

    /// 1 when the set contains `kind`, 0 when not: computed without a branch, for passes over
    /// every row that count or keep the rows of some kinds (a branch per row mispredicts
    /// when the kinds interleave).
    @inline(__always)
    public func membership(_ kind: EventKind) -> Int {
        Int(truncatingIfNeeded: (bits &>> UInt64(kind.rawValue & 63)) & 1)
    }
}

/// How many events of each kind, counted in a fixed array by raw value.
public struct EventKindCounts: Sendable, Equatable {
    private var counts = [Int](repeating: 0, count: EventKind.allCases.count)

    public init() {}

    public subscript(kind: EventKind) -> Int {
        get { counts[Int(kind.rawValue)] }
        set { counts[Int(kind.rawValue)] = newValue }
    }

    /// The kinds counted at least once with their counts, in raw-value order.
    public var nonZero: [(kind: EventKind, count: Int)] {
        EventKind.allCases.compactMap { kind in counts[Int(kind.rawValue)] > 0 ? (kind, counts[Int(kind.rawValue)]) : nil }
    }
}
