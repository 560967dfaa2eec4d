extension UnsafeRawBufferPointer {
    // Network-order and little-endian reads at a byte offset. Callers check `offset + width <=
    // count` first; the decoders never read past what they checked.

    @inline(__always)
    func u16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    @inline(__always)
    func u32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always)
    func u64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    func u16le(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    @inline(__always)
    func u32le(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The bytes `range`, which the caller has checked lie inside the buffer.
    @inline(__always)
    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: self[range])
    }
}
