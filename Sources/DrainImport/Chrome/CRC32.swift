/// The CRC-32 of ISO 3309 / ITU-T V.42 that gzip members end with (RFC 1952 §8): reflected
/// polynomial 0xEDB88320, initial value and final XOR all ones.
struct CRC32 {
    private(set) var value: UInt32 = 0

    /// The remainder of each byte value, computed once per process.
    private static let table: [UInt32] = (0..<256).map { byte in
        var remainder = UInt32(byte)
        for _ in 0..<8 {
            remainder = remainder & 1 == 1 ? (remainder >> 1) ^ 0xEDB8_8320 : remainder >> 1
        }
        return remainder
    }

    /// Adds `count` bytes at `bytes` to the checksum. O(count), one table load per byte.
    mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var crc = ~value
        Self.table.withUnsafeBufferPointer { table in
            for index in 0..<count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
            }
        }
        value = ~crc
    }
}
