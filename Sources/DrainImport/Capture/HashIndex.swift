/// An index from keys to their places in arrays its caller keeps: an open-addressing table
/// (linear probing, at most half full) of 8-byte slots, each holding a key's 32-bit hash and
/// its place + 1 (0: empty). The keys stay with the caller: a lookup compares stored hashes
/// first and asks the caller about a place only where the hashes agree.
///
/// Why not a dictionary: `[Key: UInt32]` keeps a second copy of every key and hashes every key
/// again each time it doubles. On a capture of a million one-datagram flows, the flow tracker's
/// dictionary of 40-byte flow keys spent 13 % of the run rehashing, and `DeviceSide`, counting
/// packets in two dictionaries of addresses, took 21 % of it (6 % with this index). Growing
/// here moves each slot by its stored hash without reading a key, and a key costs 16 to 32
/// bytes of slots.
///
/// The hash comes from the caller. Both callers use `hashValue`, the standard library's hash
/// with a per-process seed, so a hostile capture cannot aim its keys at one run of slots.
struct HashIndex {
    private var slots: [UInt64]
    /// Places stored: slots in use.
    private(set) var count = 0

    init() {
        slots = [UInt64](repeating: 0, count: Self.initialSlots)
    }

    /// Slots of a new index: room for 32 places.
    static let initialSlots = 64

    /// Slots allocated, used or not: a power of two, more than twice `count`.
    var slotCount: Int { slots.count }

    /// The hash a key is filed under: its `hashValue`'s low 32 bits.
    @inline(__always)
    static func hash(of key: some Hashable) -> UInt32 { UInt32(truncatingIfNeeded: key.hashValue) }

    /// Where a search for one key ended: at the key's slot, or at the empty slot where the key
    /// would be stored. Valid until the index next changes.
    struct Probe {
        /// The place stored for the key, or nil when the search ended at an empty slot.
        let place: UInt32?
        fileprivate let position: Int
        /// The slot as the search read it and the slots then, to tell a probe that outlived a
        /// change.
        fileprivate let slot: UInt64
        fileprivate let slotCount: Int
    }

    /// Searches for a key whose hash is `hash` and which `isKey` (given a stored place of the
    /// same hash) confirms. Expected O(1): at most half the slots are used, so a search ends at
    /// an empty slot within a few probes.
    @inline(__always)
    func probe(hash: UInt32, where isKey: (UInt32) -> Bool) -> Probe {
        let mask = slots.count - 1
        var position = Int(hash) & mask
        while true {
            let slot = slots[position]
            if slot == 0 { return Probe(place: nil, position: position, slot: 0, slotCount: slots.count) }
            if UInt32(truncatingIfNeeded: slot &>> 32) == hash {
                let place = UInt32(truncatingIfNeeded: slot) &- 1
                if isKey(place) { return Probe(place: place, position: position, slot: slot, slotCount: slots.count) }
            }
            position = (position &+ 1) & mask
        }
    }

    /// The place stored for a key (see `probe(hash:where:)`), or nil.
    @inline(__always)
    func place(hash: UInt32, where isKey: (UInt32) -> Bool) -> UInt32? {
        probe(hash: hash, where: isKey).place
    }

    /// Stores `place` for the key `probe` searched for, whose hash is `hash`: in place of its
    /// stored place if the probe found one (a key whose place moved), else in the empty slot
    /// the probe ended at. So a key not yet stored costs one search, not two. O(1); amortised
    /// O(1) with the doubling, which moves every slot once and reads no key.
    ///
    /// - Precondition: `probe` came from this index since it last changed; `place` <
    ///   `UInt32.max`.
    mutating func store(_ place: UInt32, hash: UInt32, at probe: Probe) {
        precondition(place < UInt32.max, "place \(place) is beyond a hash index")
        precondition(
            probe.slotCount == slots.count && slots[probe.position] == probe.slot, "a hash index probe used after the index changed")
        slots[probe.position] = UInt64(hash) &<< 32 | UInt64(place &+ 1)
        guard probe.place == nil else { return }
        count += 1
        if count * 2 > slots.count { grow() }
    }

    /// Doubles the slots, placing each entry again by the hash it holds.
    private mutating func grow() {
        var larger = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for slot in slots where slot != 0 {
            var position = Int(truncatingIfNeeded: slot &>> 32) & mask
            while larger[position] != 0 { position = (position &+ 1) & mask }
            larger[position] = slot
        }
        slots = larger
    }
}
