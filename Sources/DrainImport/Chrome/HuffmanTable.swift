/// A canonical Huffman code of a DEFLATE block (RFC 1951 §3.2.2) as a lookup table indexed
/// by the next `maximumLength` bits of the stream, so that decoding a symbol is one load.
///
/// Each entry is `symbol << 4 | code length`; length 0 marks bit patterns that no code
/// starts with (an incomplete code), which decoding rejects. The owner frees the storage
/// with `deallocate()`.
struct HuffmanTable {
    /// The longest code DEFLATE allows.
    static var longestCode: Int { 15 }

    private let entries: UnsafeMutablePointer<UInt16>
    private(set) var maximumLength = 0

    init() {
        entries = .allocate(capacity: 1 << Self.longestCode)
    }

    func deallocate() {
        entries.deallocate()
    }

    /// The entry for the next bits of the stream (`bits` holds at least `maximumLength` of them).
    @inline(__always)
    func entry(_ bits: UInt64) -> UInt16 {
        entries[Int(truncatingIfNeeded: bits) & ((1 << maximumLength) - 1)]
    }

    /// Builds the table from the code length of each symbol (0 = unused). O(2^maximumLength + symbols).
    ///
    /// - Returns: false when the lengths describe more codes than fit (over-subscribed);
    ///   incomplete codes are allowed, as DEFLATE needs them for a single distance code.
    mutating func build(lengths: UnsafeBufferPointer<UInt8>) -> Bool {
        var counts = (0...Self.longestCode).map { _ in 0 }
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...Self.longestCode {
            left = left << 1 - counts[length]
            if left < 0 { return false }
        }
        maximumLength = counts.lastIndex { $0 > 0 } ?? 0
        let size = 1 << maximumLength
        entries.initialize(repeating: 0, count: size)
        // The first code of each length (RFC 1951 §3.2.2, step 2).
        var next = [Int](repeating: 0, count: Self.longestCode + 1)
        var code = 0
        for length in 1...Self.longestCode {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let length = Int(length)
            let reversed = Self.reverse(next[length], bits: length)
            next[length] += 1
            let entry = UInt16(symbol << 4 | length)
            // Codes are sent most significant bit first into a stream read least significant
            // bit first, so the table index is the reversed code, with every filling of the
            // bits after it.
            var index = reversed
            while index < size {
                entries[index] = entry
                index += 1 << length
            }
        }
        return true
    }

    private static func reverse(_ code: Int, bits: Int) -> Int {
        var result = 0
        var code = code
        for _ in 0..<bits {
            result = result << 1 | code & 1
            code >>= 1
        }
        return result
    }
}
