/// A short name (a field name, an event type, an enum value) packed into three machine
/// words, so that comparing two names costs three integer comparisons.
struct PackedName: Equatable, Sendable {
    /// The longest name that packs; longer names are in no table.
    static var capacity: Int { 24 }

    /// How many bytes must be readable from the start of a name for `init(padded:)`: the
    /// buffers that input text lives in (`LineReader`, `ScannedLine`'s scratch) keep this
    /// many readable bytes after their contents.
    static var padding: Int { capacity }

    var length: Int
    var words: (UInt64, UInt64, UInt64)

    init(length: Int, words: (UInt64, UInt64, UInt64)) {
        self.length = length
        self.words = words
    }

    /// Packs a name by loading whole words and masking off the bytes after it, which is
    /// much cheaper than copying bytes one by one. `PackedName.padding` bytes from
    /// `name.baseAddress` must be readable (their values do not matter). `nil` for names
    /// longer than `capacity`.
    @inline(__always)
    init?(padded name: UnsafeRawBufferPointer) {
        let count = name.count
        guard count <= PackedName.capacity else { return nil }
        length = count
        guard let start = name.baseAddress else {
            words = (0, 0, 0)
            return
        }
        words = (
            UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)) & Self.mask(keeping: count),
            UInt64(littleEndian: start.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & Self.mask(keeping: count - 8),
            UInt64(littleEndian: start.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) & Self.mask(keeping: count - 16)
        )
    }

    /// Packs a name from a string (for building tables).
    init(_ name: String) {
        var bytes = Array(name.utf8)
        precondition(bytes.count <= PackedName.capacity, "name longer than \(PackedName.capacity) bytes: \(name)")
        bytes += repeatElement(0, count: PackedName.padding)
        self = bytes.withUnsafeBytes { PackedName(padded: UnsafeRawBufferPointer(rebasing: $0[..<name.utf8.count]))! }
    }

    /// The name as text (for messages).
    var string: String {
        var packed = words
        let bytes = withUnsafeBytes(of: &packed) { Array($0.prefix(length)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A mask of the low `count` bytes of a word (all of them for 8 or more, none for 0 or fewer).
    @inline(__always)
    static func mask(keeping count: Int) -> UInt64 {
        if count >= 8 { return ~0 }
        if count <= 0 { return 0 }
        return (1 &<< UInt64(count * 8)) &- 1
    }

    static func == (lhs: PackedName, rhs: PackedName) -> Bool {
        lhs.length == rhs.length && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
            && lhs.words.2 == rhs.words.2
    }

    /// Mixes the name into one word; `NameTable` multiplies it by its seed.
    @inline(__always)
    var key: UInt64 {
        (words.0 ^ UInt64(truncatingIfNeeded: length)) ^ (words.1 &* 0x9E37_79B9_7F4A_7C15)
            ^ (words.2 &* 0xC2B2_AE3D_27D4_EB4F)
    }
}

/// A fixed set of names, each mapped to a small code, looked up straight from input bytes.
///
/// A perfect hash: when the table is built, a multiplier is searched that sends every name
/// to a slot of its own, so a lookup is one multiplication, one load and one comparison,
/// with no probing and no allocation. Tables are built once per process (see
/// `TraceVocabulary.shared`) and their storage lives as long as the process, which keeps
/// the table itself a plain value that costs nothing to pass around.
struct NameTable: @unchecked Sendable {
    private struct Entry {
        var name: PackedName
        var code: UInt8
    }

    /// `1 << bits` entries; an empty slot has a name no input can match (length -1).
    private let entries: UnsafePointer<Entry>
    private let seed: UInt64
    private let shift: UInt64
    /// The names in the order given, for messages that list the allowed values.
    private let names: UnsafeBufferPointer<PackedName>

    init(_ names: [(String, UInt8)]) {
        let packed = names.map { PackedName($0.0) }
        var bits = 3
        while 1 << bits < names.count * 4 { bits += 1 }
        // Deterministic candidates from a linear congruential sequence; for sets this small
        // a few tries find one without collisions, and a bigger table makes it easier still.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var slots: [Int]
        var tries = 0
        while true {
            let shift = UInt64(64 - bits)
            slots = packed.map { Int(truncatingIfNeeded: ($0.key &* seed) >> shift) }
            if Set(slots).count == slots.count { break }
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            tries += 1
            if tries % 64 == 0 { bits += 1 }
        }
        let empty = Entry(name: PackedName(length: -1, words: (0, 0, 0)), code: 0)
        let storage = UnsafeMutablePointer<Entry>.allocate(capacity: 1 << bits)
        storage.initialize(repeating: empty, count: 1 << bits)
        for (index, (_, code)) in names.enumerated() {
            storage[slots[index]] = Entry(name: packed[index], code: code)
        }
        let ordered = UnsafeMutableBufferPointer<PackedName>.allocate(capacity: packed.count)
        _ = ordered.initialize(from: packed)
        self.entries = UnsafePointer(storage)
        self.seed = seed
        self.shift = UInt64(64 - bits)
        self.names = UnsafeBufferPointer(ordered)
    }

    /// The code of the name in `bytes`, or `nil` if it is not in the table. `bytes` must be
    /// followed by readable padding (see `PackedName.init(padded:)`).
    @inline(__always)
    func code(ofPadded bytes: UnsafeRawBufferPointer) -> UInt8? {
        guard let packed = PackedName(padded: bytes) else { return nil }
        return code(of: packed)
    }

    /// The code of a packed name, or `nil` if it is not in the table. O(1).
    @inline(__always)
    func code(of name: PackedName) -> UInt8? {
        let entry = entries[Int(truncatingIfNeeded: (name.key &* seed) &>> shift)]
        return entry.name == name ? entry.code : nil
    }

    /// "tx, rx": the allowed names, for an error message.
    var allowedList: String { names.map(\.string).joined(separator: ", ") }
}
