/// The indices `0..<count` sorted into groups `0..<groups` by a counting sort, each group's in
/// ascending order; indices without a group are left out. Group `g` is
/// `members[offsets[g]..<offsets[g + 1]]`: 4 bytes per grouped index and per group, no
/// hashing. O(count + groups).
public struct IndexGroups: Sendable {
    private let offsets: [Int32]
    private let members: [Int32]

    /// - Precondition: fewer than 2³¹ indices; `groupOf` gives each index the same answer on
    ///   both of the two passes it is asked.
    public init(count: Int, groups: Int, groupOf: (Int) -> Int?) {
        precondition(count < Int(Int32.max), "indices are kept in 31 bits")
        var offsets = [Int32](repeating: 0, count: groups + 1)
        for index in 0..<count {
            if let group = groupOf(index) { offsets[group + 1] += 1 }
        }
        for group in 0..<groups { offsets[group + 1] += offsets[group] }
        var next = offsets
        var members = [Int32](repeating: 0, count: Int(offsets[groups]))
        for index in 0..<count {
            guard let group = groupOf(index) else { continue }
            members[Int(next[group])] = Int32(index)
            next[group] += 1
        }
        (self.offsets, self.members) = (offsets, members)
    }

    /// An empty grouping of `groups` groups.
    public init(empty groups: Int) {
        (offsets, members) = ([Int32](repeating: 0, count: groups + 1), [])
    }

    /// The indices of `group`, ascending. O(1).
    public func members(of group: Int) -> ArraySlice<Int32> {
        members[Int(offsets[group])..<Int(offsets[group + 1])]
    }
}
