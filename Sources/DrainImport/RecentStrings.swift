import DrainTrace

/// A small direct-mapped cache from short strings (packed, at most 24 bytes) to the ids
/// the timeline's `StringTable` gave them. A miss only means interning as usual.
struct RecentStrings: ~Copyable {
    private struct Entry {
        var name: PackedName
        var id: StringID
    }

    /// 256 entries of 40 bytes stay in the first-level cache.
    private static var bits: UInt64 { 8 }
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: 1 << Self.bits)
        // Length -1 matches no name.
        entries.initialize(repeating: Entry(name: PackedName(length: -1, words: (0, 0, 0)), id: 0), count: 1 << Self.bits)
    }

    deinit {
        entries.deallocate()
    }

    @inline(__always)
    private func slot(_ name: PackedName) -> Int {
        Int(truncatingIfNeeded: (name.key &* 0x9E37_79B9_7F4A_7C15) &>> (64 - Self.bits))
    }

    /// The id remembered for `name`, if it is in the cache. O(1).
    @inline(__always)
    func id(of name: PackedName) -> StringID? {
        let entry = entries[slot(name)]
        return entry.name == name ? entry.id : nil
    }

    /// Remembers `id` for `name`, replacing whatever shared its slot. O(1).
    @inline(__always)
    func remember(_ name: PackedName, as id: StringID) {
        entries[slot(name)] = Entry(name: name, id: id)
    }
}
