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

    /// The place stored for a key whose hash is `hash` and which `isKey` (given a stored place
    /// of the same hash) confirms, or nil. Expected O(1): at most half the slots are used, so
    /// a search ends at an empty slot within a few probes.
    @inline(__always)
    func place(hash: UInt32, where isKey: (UInt32) -> Bool) -> UInt32? {
        let mask = slots.count - 1
        var position = Int(hash) & mask
        while true {
            let slot = slots[position]
            if slot == 0 { return nil }
            if UInt32(truncatingIfNeeded: slot &>> 32) == hash {
                let place = UInt32(truncatingIfNeeded: slot) &- 1
                if isKey(place) { return place }
            }
            position = (position &+ 1) & mask
        }
    }

    /// Stores `place` for a key whose hash is `hash`: in place of the stored place that
    /// `isKey` confirms (a key whose place moved), else in a new slot. Expected O(1); amortised
    /// O(1) with the doubling, which moves every slot once and reads no key.
    ///
    /// - Precondition: `place` < `UInt32.max`.
    mutating func set(_ place: UInt32, hash: UInt32, replacing isKey: (UInt32) -> Bool) {
        precondition(place < UInt32.max, "place \(place) is beyond a hash index")
        let entry = UInt64(hash) &<< 32 | UInt64(place &+ 1)
        let mask = slots.count - 1
        var position = Int(hash) & mask
        while true {
            let slot = slots[position]
            if slot == 0 { break }
            if UInt32(truncatingIfNeeded: slot &>> 32) == hash, isKey(UInt32(truncatingIfNeeded: slot) &- 1) {
                slots[position] = entry
                return
            }
            position = (position &+ 1) & mask
        }
        slots[position] = entry
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
