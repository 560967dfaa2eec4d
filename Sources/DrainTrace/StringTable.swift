/// An interned string's index in a `StringTable`. `0` is the empty string, used for "none".
public typealias StringID = UInt32

/// Interns strings (host names, paths, timer names…) so that the timeline stores them as
/// 32-bit ids.
///
/// Strings are kept as UTF-8 in one flat byte buffer with an open-addressing hash index, so
/// interning bytes straight from an input buffer allocates nothing once the string is known.
/// Interning is O(length) amortised; looking a string up by id is O(1).
public struct StringTable: Sendable {
    private var bytes: [UInt8] = []
    /// Where each string starts in `bytes`; it ends where the next one starts.
    private var starts: [Int32] = [0]
    private var hashes: [UInt32] = [0]
    /// Slot → id + 1 (0 = empty slot). Capacity is a power of two.
    private var slots: [UInt32] = Array(repeating: 0, count: 64)

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
        let start = bytes.count
        bytes.append(contentsOf: utf8)
        starts.append(Int32(truncatingIfNeeded: start))
        hashes.append(hash)
        slots[slot] = UInt32(id + 1)
        if starts.count * 2 > slots.count { grow() }
        return StringID(id)
    }

    /// Interns every string of `other` and returns, for each of its ids, the id here.
    /// O(bytes of `other`).
    public mutating func intern(contentsOf other: StringTable) -> [StringID] {
        var ids = [StringID](repeating: 0, count: other.count)
        other.bytes.withUnsafeBytes { storage in
            for id in 1..<other.count {
                ids[id] = intern(UnsafeRawBufferPointer(rebasing: storage[other.byteRange(of: id)]))
            }
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
        let range = byteRange(of: Int(id))
        return bytes.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
    }

    /// Gives back the room the byte buffer and the per-string columns grew beyond their
    /// count (`Array.releaseUnusedCapacity`): a capture's connection labels and request paths
    /// are kept through the rules, when memory peaks. Interning afterwards grows them again.
    public mutating func releaseUnusedCapacity() {
        bytes.releaseUnusedCapacity()
        starts.releaseUnusedCapacity()
        hashes.releaseUnusedCapacity()
    }

    private func byteRange(of id: Int) -> Range<Int> {
        Int(starts[id])..<(id + 1 < starts.count ? Int(starts[id + 1]) : bytes.count)
    }

    private func equals(id: Int, _ utf8: UnsafeRawBufferPointer) -> Bool {
        let range = byteRange(of: id)
        guard range.count == utf8.count else { return false }
        return bytes.withUnsafeBytes { storage in
            memcmp(storage.baseAddress! + range.lowerBound, utf8.baseAddress!, utf8.count) == 0
        }
    }

    private mutating func grow() {
        let capacity = slots.count * 2
        var newSlots = [UInt32](repeating: 0, count: capacity)
        let mask = capacity - 1
        for id in 1..<starts.count {
            var slot = Int(hashes[id]) & mask
            while newSlots[slot] != 0 { slot = (slot + 1) & mask }
            newSlots[slot] = UInt32(id + 1)
        }
        slots = newSlots
    }

    /// FNV-1a over the bytes: cheap, and good enough for host names and paths.
    @inline(__always)
    private static func hash(_ utf8: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return hash
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
