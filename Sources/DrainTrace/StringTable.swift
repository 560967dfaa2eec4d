/// An interned string's index in a `StringTable`. `0` is the empty string, used for "none".
public typealias StringID = UInt32

/// Interns strings (host names, paths, timer names…) so that the timeline stores them as
/// 32-bit ids.
///
/// Strings are kept as UTF-8 in chunks of bytes with an open-addressing hash index, so
/// interning bytes straight from an input buffer allocates nothing once the string is known.
/// Interning is O(length) amortised; looking a string up by id is O(1).
///
/// Why chunks: one byte buffer grown by doubling copied every string at each growth, and held
/// the old buffer beside the new one while it did; a capture's connection labels are added
/// at the end of its import, when memory peaks. A chunk is filled and never moved, so growing
/// adds a chunk and at most the last one has room to spare.
public struct StringTable: Sendable {
    /// Bytes per chunk: 64 KiB. A string never spans two chunks; a longer one has a chunk of
    /// its own, at offset 0, so that every string's place is `chunk << chunkShift + offset`.
    static let chunkShift = 16
    static var chunkSize: Int { 1 << chunkShift }

    private var chunks: [[UInt8]] = []
    /// Where each string starts (`chunk << chunkShift + offset`); it ends where the next one
    /// starts when that is in the same chunk, else where its chunk's bytes end.
    private var starts: [Int32] = [0]
    /// Each string's hash (never 0), or 0 for one added by `appendUnindexed`.
    private var hashes: [UInt32] = [0]
    /// Slot → id + 1 (0 = empty slot). Capacity is a power of two, more than twice `indexed`.
    private var slots: [UInt32] = Array(repeating: 0, count: 64)
    /// Strings in `slots`: all but the empty string and those added by `appendUnindexed`.
    private var indexed = 0

    /// Slots of the index, used or not (for tests).
    var slotCount: Int { slots.count }

    public init() {}

    /// The number of strings, the empty string included.
    public var count: Int { starts.count }

    /// Interns UTF-8 bytes and returns the string's id.
    public mutating func intern(_ utf8: UnsafeRawBufferPointer) -> StringID {
        if utf8.isEmpty { return 0 }
        let hash = Self.hash(utf8)
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            let id = Int(entry - 1)
            if hashes[id] == hash, equals(id: id, utf8) { return StringID(id) }
            slot = (slot + 1) & mask
        }
        let id = starts.count
        starts.append(Int32(truncatingIfNeeded: append(utf8)))
        hashes.append(hash)
        slots[slot] = UInt32(id + 1)
        indexed += 1
        if indexed * 2 > slots.count { grow() }
        return StringID(id)
    }

    /// Adds UTF-8 bytes as a new string without looking them up or indexing them, and
    /// returns its id. For strings that nothing looks up by text and that the caller knows to
    /// be distinct from each other, such as a capture's connection labels (one per flow, each
    /// naming its flow's 5-tuple): `intern` and `lookup` never find such a string here, so
    /// interning the same text later gives it an id of its own. `intern(contentsOf:)` (how
    /// tables are merged) interns them like any other string. O(length), and no random read of
    /// the index: on a capture of a million one-datagram flows, hashing and indexing the
    /// labels took 7 % of the run.
    public mutating func appendUnindexed(_ utf8: UnsafeRawBufferPointer) -> StringID {
        if utf8.isEmpty { return 0 }
        let id = starts.count
        starts.append(Int32(truncatingIfNeeded: append(utf8)))
        hashes.append(0)
        return StringID(id)
    }

    /// Interns every string of `other` and returns, for each of its ids, the id here.
    /// O(bytes of `other`).
    public mutating func intern(contentsOf other: StringTable) -> [StringID] {
        var ids = [StringID](repeating: 0, count: other.count)
        for id in 1..<other.count {
            ids[id] = other.withBytes(of: id) { intern($0) }
        }
        return ids
    }

    /// Interns a string and returns its id.
    public mutating func intern(_ string: String) -> StringID {
        var copy = string
        return copy.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// The id of a string that is already interned, without adding it.
    public func lookup(_ string: String) -> StringID? {
        var copy = string
        return copy.withUTF8 { buffer -> StringID? in
            let raw = UnsafeRawBufferPointer(buffer)
            if raw.isEmpty { return 0 }
            let hash = Self.hash(raw)
            let mask = slots.count - 1
            var slot = Int(hash) & mask
            while slots[slot] != 0 {
                let id = Int(slots[slot] - 1)
                if hashes[id] == hash, equals(id: id, raw) { return StringID(id) }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// The string for an id. Invalid UTF-8 from an input is repaired with U+FFFD.
    public subscript(id: StringID) -> String {
        withBytes(of: Int(id)) { String(decoding: $0, as: UTF8.self) }
    }

    /// Gives back the room the last chunk and the per-string columns grew beyond their count
    /// (`Array.releaseUnusedCapacity`): a capture's connection labels and request paths are
    /// kept through the rules, when memory peaks. Interning afterwards grows them again.
    public mutating func releaseUnusedCapacity() {
        if !chunks.isEmpty { chunks[chunks.count - 1].releaseUnusedCapacity() }
        starts.releaseUnusedCapacity()
        hashes.releaseUnusedCapacity()
    }

    /// Copies `utf8` into the last chunk, or into a new one when it does not fit, and returns
    /// where it starts.
    private mutating func append(_ utf8: UnsafeRawBufferPointer) -> Int {
        let size = Self.chunkSize
        if let last = chunks.indices.last, chunks[last].count + utf8.count <= size {
            let start = last << Self.chunkShift + chunks[last].count
            chunks[last].append(contentsOf: utf8)
            return start
        }
        let first = chunks.count
        var chunk: [UInt8] = []
        // The first chunk grows as strings come, so that a table of a few names stays small.
        chunk.reserveCapacity(first == 0 ? utf8.count : max(size, utf8.count))
        chunk.append(contentsOf: utf8)
        chunks.append(chunk)
        return first << Self.chunkShift
    }

    /// Calls `body` with the UTF-8 bytes of string `id`.
    private func withBytes<Result>(of id: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard id > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let (chunk, range) = location(of: id)
        return chunks[chunk].withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// The chunk of string `id` (not 0) and where its bytes lie in it.
    @inline(__always)
    private func location(of id: Int) -> (chunk: Int, range: Range<Int>) {
        let start = Int(starts[id])
        let chunk = start >> Self.chunkShift, offset = start & (Self.chunkSize - 1)
        if id + 1 < starts.count, Int(starts[id + 1]) >> Self.chunkShift == chunk {
            return (chunk, offset..<Int(starts[id + 1]) & (Self.chunkSize - 1))
        }
        return (chunk, offset..<chunks[chunk].count)
    }

    /// Whether string `id` (not 0) is `utf8` (not empty). Interning a known string ends here,
    /// so the lengths are compared before the chunk is touched.
    private func equals(id: Int, _ utf8: UnsafeRawBufferPointer) -> Bool {
        let (chunk, range) = location(of: id)
        guard range.count == utf8.count else { return false }
        return chunks[chunk].withUnsafeBytes { memcmp($0.baseAddress! + range.lowerBound, utf8.baseAddress!, utf8.count) == 0 }
    }

    /// Doubles the slots, placing each indexed string again by its stored hash, in id order
    /// (the hashes are read in turn).
    private mutating func grow() {
        let capacity = slots.count * 2
        var newSlots = [UInt32](repeating: 0, count: capacity)
        let mask = capacity - 1
        for id in 1..<starts.count where hashes[id] != 0 {
            var slot = Int(hashes[id]) & mask
            while newSlots[slot] != 0 { slot = (slot + 1) & mask }
            newSlots[slot] = UInt32(id + 1)
        }
        slots = newSlots
    }

    /// The standard library's hash of the bytes (SipHash-1-3 with a seed drawn per process):
    /// an input cannot choose strings that share one hash. With FNV-1a, used before, a hostile
    /// capture could give thousands of server names one hash (multicollisions of it are found
    /// in a second), and every one of them interned would probe past all the others. Never 0,
    /// which marks a string that is not indexed.
    @inline(__always)
    static func hash(_ utf8: UnsafeRawBufferPointer) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(bytes: utf8)
        return max(1, UInt32(truncatingIfNeeded: hasher.finalize()))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
