/// The `packet` harness's input format, made into a classic pcap file so that frames reach
/// the packet decoder exactly as from a capture: the first byte picks the link type (from
/// every one `LinkLayer` knows, plus one it does not), then frames follow, each a 16-bit
/// little-endian length whose top bit marks the frame as cut by the snapshot length (its wire
/// length 64 bytes longer than what was captured), then that many bytes. Frames are 1 ms apart.
enum PacketFrames {
    /// The link-layer header types tried, as pcap numbers; 147 (a user type) is not decoded.
    static let linkTypes: [UInt32] = [1, 113, 276, 12, 14, 101, 228, 229, 0, 108, 9, 50, 104, 105, 127, 258, 147]

    static func pcap(from bytes: [UInt8]) -> [UInt8]? {
        guard let first = bytes.first else { return nil }
        var file: [UInt8] = []
        file.reserveCapacity(24 + bytes.count * 2)
        // The global header: magic (microsecond, little-endian), version 2.4, zone, sigfigs,
        // snapshot length, link type.
        append32(0xA1B2_C3D4, to: &file)
        append16(2, to: &file)
        append16(4, to: &file)
        append32(0, to: &file)
        append32(0, to: &file)
        append32(65535, to: &file)
        append32(linkTypes[Int(first) % linkTypes.count], to: &file)
        var offset = 1
        var index: UInt32 = 0
        while offset + 2 <= bytes.count {
            let header = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
            offset += 2
            let length = min(Int(header & 0x7FFF), bytes.count - offset)
            let wire = header & 0x8000 != 0 ? length + 64 : length
            append32(index / 1000, to: &file)
            append32(index % 1000 * 1000, to: &file)
            append32(UInt32(length), to: &file)
            append32(UInt32(wire), to: &file)
            file += bytes[offset..<offset + length]
            offset += length
            index += 1
        }
        return file
    }

    private static func append16(_ value: UInt16, to file: inout [UInt8]) {
        file += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    private static func append32(_ value: UInt32, to file: inout [UInt8]) {
        append16(UInt16(truncatingIfNeeded: value), to: &file)
        append16(UInt16(truncatingIfNeeded: value >> 16), to: &file)
    }
}
