/// Finds the server name in a Google QUIC client hello (CHLO), in place.
///
/// Google QUIC before Q050 sends its first packets in the clear, with only a 12-byte message
/// hash in front of the frames ("null encryption"): the CHLO is in a STREAM frame of stream 1.
/// Q043 and earlier use the public header: public flags, an 8-byte connection ID, the version,
/// then the packet number; Q046 the IETF-draft long header with 4-bit connection ID lengths.
/// Before Q034 a private flags byte follows the hash, and before Q039 the frame fields are
/// little-endian. (Chromium's QUIC wire specification and quiche's `quic_versions.h` and
/// `quic_framer.cc` describe these.) Q050 encrypts its Initials instead:
/// `QUICInitialDecryptor` opens them, and `readMessage` reads the CHLO of their CRYPTO stream.
///
/// The CHLO is a QUIC crypto handshake message: the tag "CHLO", a little-endian 16-bit tag
/// count, two bytes of padding, then per tag the tag and the little-endian 32-bit end offset
/// of its value, then the values; the server name is the value of the tag "SNI\0".
enum GQUICClientHello {
    enum Outcome: Equatable {
        /// Not a client packet of a version sent in the clear, or no CHLO in it.
        case notClientHello
        /// A CHLO whose server name is at this range of the bytes given.
        case serverName(Range<Int>)
        /// A CHLO without a server name.
        case noServerName
        /// A CHLO that continues past the bytes given; `total` bytes would hold it.
        case incomplete(total: Int)
        /// A CHLO whose tags or offsets contradict each other.
        case malformed
    }

    /// The most tags a handshake message may have (quiche's `kMaxEntries`).
    static let tagLimit = 128
    static let clientHelloTag: UInt32 = 0x4348_4C4F  // "CHLO"
    static let serverNameTag: UInt32 = 0x534E_4900  // "SNI\0"

    /// The number of a Google QUIC version "Q0dd" (43 for "Q043"), if it is one.
    static func versionNumber(_ version: UInt32) -> Int? {
        guard version >> 16 == 0x5130 else { return nil }  // "Q0"
        let tens = Int((version >> 8) & 0xFF) - 0x30
        let units = Int(version & 0xFF) - 0x30
        guard (0...9).contains(tens), (0...9).contains(units) else { return nil }
        return tens * 10 + units
    }

    /// Reads the CHLO of a Google QUIC packet sent in the clear at the start of `datagram`
    /// (Q043 and earlier, Q046). O(tags).
    static func read(_ datagram: UnsafeRawBufferPointer) -> Outcome {
        guard let (version, hashStart) = clearHeader(datagram) else { return .notClientHello }
        // The message hash (12), then before Q034 the private flags.
        var position = hashStart + 12 + (version < 34 ? 1 : 0)
        let bigEndian = version >= 39
        // The CHLO is on stream 1, whose STREAM frame comes first in the client's packet.
        guard position < datagram.count, datagram[position] & 0x80 != 0 else { return .notClientHello }
        let type = datagram[position]
        position += 1
        let streamIDLength = Int(type & 0x03) + 1
        let offsetCode = Int(type >> 2) & 0x07
        let offsetLength = offsetCode == 0 ? 0 : offsetCode + 1
        let hasDataLength = type & 0x20 != 0
        guard position + streamIDLength + offsetLength + (hasDataLength ? 2 : 0) <= datagram.count else { return .notClientHello }
        var streamID: UInt32 = 0
        for index in 0..<streamIDLength {
            let byte = UInt32(datagram[position + index])
            streamID |= bigEndian ? byte << (8 * (streamIDLength - 1 - index)) : byte << (8 * index)
        }
        guard streamID == 1 else { return .notClientHello }
        position += streamIDLength + offsetLength
        var dataEnd = datagram.count
        if hasDataLength {
            let length = Int(bigEndian ? datagram.u16(at: position) : datagram.u16le(at: position))
            position += 2
            dataEnd = min(dataEnd, position + length)
        }
        switch readMessage(datagram.slice(position..<dataEnd)) {
        case let .serverName(range): return .serverName(range.lowerBound + position..<range.upperBound + position)
        case let .incomplete(total): return .incomplete(total: total + position)
        case let other: return other
        }
    }

    /// The version number of a client packet sent in the clear and where its message hash
    /// starts, or `nil`.
    private static func clearHeader(_ datagram: UnsafeRawBufferPointer) -> (version: Int, hashStart: Int)? {
        guard let flags = datagram.first else { return nil }
        if flags & 0x80 == 0 {
            // Public header: the version flag (0x01) is set on a client's first packets; not
            // a public reset (0x02). Clients send 8-byte connection IDs (flag 0x08); bits
            // 0x30 give the packet number length, 1, 2, 4 or 6 bytes.
            guard flags & 0x03 == 0x01 else { return nil }
            let connectionIDLength = flags & 0x08 != 0 ? 8 : 0
            let versionOffset = 1 + connectionIDLength
            guard versionOffset + 4 <= datagram.count, let version = versionNumber(datagram.u32(at: versionOffset)),
                version <= 43
            else { return nil }
            let packetNumberCode = Int(flags >> 4) & 0x03
            let packetNumberLength = packetNumberCode == 3 ? 6 : 1 << packetNumberCode
            // From Q033 flag 0x04 announces a 32-byte diversification nonce (sent by servers).
            let nonceLength = version >= 33 && flags & 0x04 != 0 ? 32 : 0
            return (version, versionOffset + 4 + nonceLength + packetNumberLength)
        }
        // Q046 long header: flags, version, connection ID lengths (each 0 or 3 + the nibble),
        // connection IDs, then a packet number of 1–4 bytes (low bits of the flags). Only an
        // Initial (type bits 0) carries the CHLO.
        guard flags & 0x30 == 0, datagram.count >= 6, versionNumber(datagram.u32(at: 1)) == 46 else { return nil }
        let lengths = datagram[5]
        let destination = lengths >> 4 == 0 ? 0 : Int(lengths >> 4) + 3
        let source = lengths & 0x0F == 0 ? 0 : Int(lengths & 0x0F) + 3
        return (46, 6 + destination + source + Int(flags & 0x03) + 1)
    }

    /// Reads the CHLO message at the start of `message`. O(tags).
    static func readMessage(_ message: UnsafeRawBufferPointer) -> Outcome {
        guard message.count >= 4 else { return .incomplete(total: 8) }
        guard message.u32(at: 0) == clientHelloTag else { return .notClientHello }
        guard message.count >= 8 else { return .incomplete(total: 8) }
        let tags = Int(message.u16le(at: 4))
        guard tags <= tagLimit else { return .malformed }
        let valuesStart = 8 + 8 * tags
        guard valuesStart <= message.count else { return .incomplete(total: valuesStart) }
        var valueStart = 0
        var name: Range<Int>?
        for index in 0..<tags {
            let entry = 8 + 8 * index
            let valueEnd = Int(message.u32le(at: entry + 4))
            // End offsets never decrease (quiche's CryptoFramer checks the same).
            guard valueEnd >= valueStart, valueEnd <= TLSClientHello.reassemblyLimit else { return .malformed }
            if message.u32(at: entry) == serverNameTag, valueEnd > valueStart {
                name = valuesStart + valueStart..<valuesStart + valueEnd
            }
            valueStart = valueEnd
        }
        guard let name else { return .noServerName }
        return name.upperBound <= message.count ? .serverName(name) : .incomplete(total: valuesStart + valueStart)
    }
}
