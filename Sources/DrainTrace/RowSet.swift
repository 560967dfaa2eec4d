/// A set of the rows of a column, one bit per row, that finds a member's place among the
/// members in O(1): a count of the members before each 64 rows is kept beside the bits.
/// About 0.19 bytes per row.
public struct RowSet: Sendable, Equatable {
    // Visible to inlined code: reads and appends are inlined where they are made.
    @usableFromInline internal var bits: [UInt64] = []
    @usableFromInline internal var before: [UInt32] = []
    @usableFromInline internal var rows = 0
    @usableFromInline internal var members = 0

    /// The rows, members or not.
    public var count: Int { rows }
    /// The members.
    public var memberCount: Int { members }

    public init() {}

    /// The rows `0..<count`, a row a member where `isMember` says so. O(count).
    ///
    /// - Precondition: fewer than 2³² rows.
    public init(count: Int, isMember: (Int) -> Bool) {
        append(count: count, isMember: isMember)
    }

    public mutating func reserveCapacity(_ rows: Int) {
        bits.reserveCapacity((rows + 63) / 64)
        before.reserveCapacity((rows + 63) / 64)
    }

    /// Adds a row after the last. Amortised O(1).
    @inlinable
    public mutating func append(_ isMember: Bool) {
        precondition(rows < Int(UInt32.max), "a row set numbers its members in 32 bits")
        if rows & 63 == 0 {
            bits.append(0)
            before.append(UInt32(truncatingIfNeeded: members))
        }
        if isMember {
            bits[bits.count - 1] |= 1 << UInt64(rows & 63)
            members += 1
        }
        rows += 1
    }

    /// Adds `count` rows after the last, row `i` of them a member where `isMember(i)` says
    /// so: whole words of 64 rows at a time once the last word is full. O(count).
    public mutating func append(count: Int, isMember: (Int) -> Bool) {
        precondition(rows + count < Int(UInt32.max), "a row set numbers its members in 32 bits")
        reserveCapacity(rows + count)
        var next = 0
        while next < count, rows & 63 != 0 {
            append(isMember(next))
            next += 1
        }
        while count - next >= 64 {
            var word: UInt64 = 0
            for bit in 0..<64 where isMember(next + bit) { word |= 1 << UInt64(bit) }
            bits.append(word)
            before.append(UInt32(truncatingIfNeeded: members))
            members += word.nonzeroBitCount
            rows += 64
            next += 64
        }
        while next < count {
            append(isMember(next))
            next += 1
        }
    }

    /// Adds the rows of `other` after the last, each a member where it is one in `other`: a
    /// word of `other` at a time, shifted into place when this set's last word is part full.
    /// O(other.count / 64).
    public mutating func append(contentsOf other: RowSet) {
        precondition(rows + other.rows < Int(UInt32.max), "a row set numbers its members in 32 bits")
        reserveCapacity(rows + other.rows)
        var remaining = other.rows
        // Bits past a set's last row are zero, so a whole word can be shifted in.
        for word in other.bits {
            let count = min(64, remaining)
            let shift = rows & 63
            if shift == 0 {
                bits.append(0)
                before.append(UInt32(truncatingIfNeeded: members))
            }
            bits[bits.count - 1] |= word << UInt64(shift)
            let fitting = 64 - shift
            if count > fitting {
                let low = word & ((1 << UInt64(fitting)) &- 1)
                bits.append(word >> UInt64(fitting))
                before.append(UInt32(truncatingIfNeeded: members + low.nonzeroBitCount))
            }
            members += word.nonzeroBitCount
            rows += count
            remaining -= count
        }
    }

    /// Adds `count` rows after the last, all members or none: whole words of 64 rows at a time
    /// once the last word is full. O(count / 64).
    public mutating func append(repeating isMember: Bool, count: Int) {
        let head = min(count, (64 - (rows & 63)) & 63)
        append(count: head) { _ in isMember }
        let words = (count - head) / 64
        precondition(rows + 64 * words < Int(UInt32.max), "a row set numbers its members in 32 bits")
        reserveCapacity(rows + count - head)
        for _ in 0..<words {
            bits.append(isMember ? .max : 0)
            before.append(UInt32(truncatingIfNeeded: members))
            if isMember { members += 64 }
            rows += 64
        }
        append(count: count - head - 64 * words) { _ in isMember }
    }

    /// The place of `row` among the members (how many members come before it), or nil when
    /// it is not one. O(1).
    @inlinable
    public func place(of row: Int) -> Int? {
        // Every row a member (a capture's `net` rows, their bytes): the place is the row.
        if members == rows, UInt(bitPattern: row) < UInt(bitPattern: rows) { return row }
        let word = bits[row >> 6]
        let bit: UInt64 = 1 << UInt64(row & 63)
        guard word & bit != 0 else { return nil }
        return Int(before[row >> 6]) + (word & (bit &- 1)).nonzeroBitCount
    }
}
