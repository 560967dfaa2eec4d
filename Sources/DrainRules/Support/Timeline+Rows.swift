import DrainTrace

extension Timeline {
    /// The rows of the kinds in `kinds`, in order, as 4-byte row numbers. They are counted
    /// first, so the list takes one allocation of its size (plus one row): a rule's row list then
    /// costs 4 bytes per row it keeps, where a growing `[Int]` costs up to 16. Neither pass
    /// branches on the kind (`EventKindSet.membership`): on a trace the kinds interleave, and
    /// a branch per row, mispredicted, made these scans most of some rules' time. O(rows).
    ///
    /// - Precondition: fewer than 2³² rows.
    func rows(of kinds: EventKindSet) -> [UInt32] {
        precondition(count <= Int(UInt32.max), "row lists hold 32-bit rows")
        return kind.withUnsafeBufferPointer { column in
            var matching = 0
            for kind in column { matching &+= kinds.membership(kind) }
            // Every row is written to the next free place, which moves on only past a row of
            // the kinds; the spare place takes the writes after the last such row.
            return [UInt32](unsafeUninitializedCapacity: matching + 1) { places, initialized in
                var next = 0
                for row in column.indices {
                    places[next] = UInt32(truncatingIfNeeded: row)
                    next &+= kinds.membership(column[row])
                }
                initialized = next
            }
        }
    }
}
