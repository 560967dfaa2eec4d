/// The fields of one QUIC long-header packet in a UDP datagram, up to its (still protected)
/// packet number (RFC 9000 §17.2; an Initial's token, §17.2.2). Read in place: offsets are
/// into the datagram.
struct QUICLongHeader {
    let version: QUICInitialVersion
    /// Where the packet starts in the datagram (packets may be coalesced, RFC 9000 §12.2).
    let start: Int
    /// The long-header packet type bits (bits 4–5 of the first byte, still meaning what
    /// `version` says they mean).
    let type: UInt8
    let destinationID: Range<Int>
    /// Where the protected packet number starts, and where the packet ends: the Length field
    /// counts the packet number and the protected payload.
    let packetNumberOffset: Int
    let end: Int

    var isInitial: Bool { type == version.initialType }

    /// The longest connection ID of QUIC version 1 and 2 (RFC 9000 §17.2).
    static let connectionIDLimit = 20

    /// Reads the packet at `start` of `datagram` if it is a long-header packet of a version
    /// whose Initials can be opened and its fields lie inside the captured bytes; `nil` for
    /// anything else, a Retry (it has no Length) included. O(1).
    static func read(_ datagram: UnsafeRawBufferPointer, at start: Int) -> QUICLongHeader? {
        // First byte, version (4), Destination Connection ID length (1).
        guard start >= 0, start + 6 <= datagram.count, datagram[start] & 0x80 != 0,
            let version = QUICInitialVersion(datagram.u32(at: start + 1))
        else { return nil }
        let type = (datagram[start] >> 4) & 0x03
        guard type != version.retryType else { return nil }
        var position = start + 5
        let destinationLength = Int(datagram[position])
        guard destinationLength <= connectionIDLimit, position + 1 + destinationLength < datagram.count else { return nil }
        let destination = position + 1..<position + 1 + destinationLength
        position = destination.upperBound
        let sourceLength = Int(datagram[position])
        guard sourceLength <= connectionIDLimit else { return nil }
        position += 1 + sourceLength
        if type == version.initialType {
            guard let token = QUICVarInt.read(datagram, at: &position), token <= UInt64(datagram.count - position) else { return nil }
            position += Int(token)
        }
        guard let length = QUICVarInt.read(datagram, at: &position), length <= UInt64(datagram.count - position) else { return nil }
        return QUICLongHeader(
            version: version, start: start, type: type, destinationID: destination, packetNumberOffset: position,
            end: position + Int(length))
    }
}

/// QUIC's variable-length integers: the two high bits of the first byte give the length, 1,
/// 2, 4 or 8 bytes, big-endian (RFC 9000 §16).
enum QUICVarInt {
    /// The integer at `position` of `bytes`, moving `position` past it; `nil` (and `position`
    /// unmoved) if it runs past the end.
    static func read(_ bytes: UnsafeRawBufferPointer, at position: inout Int) -> UInt64? {
        guard position >= 0, position < bytes.count else { return nil }
        let width = 1 << Int(bytes[position] >> 6)
        guard position + width <= bytes.count else { return nil }
        var value = UInt64(bytes[position] & 0x3F)
        for offset in 1..<width {
            value = value << 8 | UInt64(bytes[position + offset])
        }
        position += width
        return value
    }
}
