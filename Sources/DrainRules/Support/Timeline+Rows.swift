import DrainTrace

extension Timeline {
    /// The rows whose kind satisfies `isIncluded`, in order, as 4-byte row numbers. They are
    /// counted first, so the list takes one allocation of its exact size: a rule's row list
    /// then costs 4 bytes per row it keeps, where a growing `[Int]` costs up to 16. O(rows).
    ///
    /// - Precondition: fewer than 2³² rows.
    func rows(where isIncluded: (EventKind) -> Bool) -> [UInt32] {
        precondition(count <= Int(UInt32.max), "row lists hold 32-bit rows")
        var matching = 0
        for kind in kind where isIncluded(kind) { matching += 1 }
        var rows: [UInt32] = []
        rows.reserveCapacity(matching)
        for row in 0..<count where isIncluded(kind[row]) { rows.append(UInt32(truncatingIfNeeded: row)) }
        return rows
    }
}
