/// Finds the server name (SNI) in a TLS ClientHello, in place: at the start of a TCP payload
/// (inside a TLS record), or at the start of a QUIC CRYPTO stream (a bare handshake message).
enum TLSClientHello {
    enum Outcome: Equatable {
        /// The payload is not a TLS handshake record.
        case notTLS
        /// A TLS handshake record other than a ClientHello (a ServerHello…).
        case otherHandshake
        /// A ClientHello whose server name is at this range of the payload.
        case serverName(Range<Int>)
        /// A ClientHello without a server name.
        case noServerName
        /// A ClientHello that continues past the bytes given; `total` bytes would hold it.
        case incomplete(total: Int)
        /// A ClientHello whose lengths contradict each other.
        case malformed
    }

    /// The largest ClientHello record worth reassembling across segments.
    static let reassemblyLimit = 16 << 10

    /// Whether `payload` starts like a TLS handshake record (content type 22, version 3.x).
    static func isHandshake(_ payload: UnsafeRawBufferPointer) -> Bool {
        payload.count >= 6 && payload[0] == 0x16 && payload[1] == 0x03 && payload[2] <= 0x04
    }

    /// Reads the ClientHello record at the start of `payload`. O(extensions).
    static func read(_ payload: UnsafeRawBufferPointer) -> Outcome {
        guard isHandshake(payload) else { return .notTLS }
        guard payload[5] == 1 else { return .otherHandshake }
        // The record header (5), then the handshake header (4); the record's length bounds it.
        return readHello(payload, body: 5 + 4, end: 5 + Int(payload.u16(at: 3)))
    }

    /// Reads the handshake message at the start of `message`, which has no record header: QUIC
    /// carries TLS handshake messages bare in its CRYPTO frames (RFC 9001 §4). O(extensions).
    static func readHandshake(_ message: UnsafeRawBufferPointer) -> Outcome {
        guard message.count >= 4 else { return .incomplete(total: 4) }
        guard message[0] == 1 else { return .otherHandshake }
        // msg_type (1), then a 24-bit length (RFC 8446 §4).
        let length = Int(message[1]) << 16 | Int(message.u16(at: 2))
        return readHello(message, body: 4, end: 4 + length)
    }

    /// Reads a ClientHello whose body (after the handshake header) starts at `body` and which
    /// ends at `messageEnd`, which may lie past the bytes given.
    private static func readHello(_ payload: UnsafeRawBufferPointer, body: Int, end messageEnd: Int) -> Outcome {
        let end = min(messageEnd, payload.count)
        let incomplete: Outcome = messageEnd > payload.count ? .incomplete(total: messageEnd) : .malformed
        // Client version (2), random (32), then the session id.
        var position = body + 2 + 32
        guard position + 1 <= end else { return incomplete }
        position += 1 + Int(payload[position])
        guard position + 2 <= end else { return incomplete }
        position += 2 + Int(payload.u16(at: position))
        guard position + 1 <= end else { return incomplete }
        position += 1 + Int(payload[position])
        guard position + 2 <= end else { return position == messageEnd ? .noServerName : incomplete }
        let extensionsEnd = min(position + 2 + Int(payload.u16(at: position)), messageEnd)
        position += 2
        while position + 4 <= min(extensionsEnd, end) {
            let type = payload.u16(at: position)
            let length = Int(payload.u16(at: position + 2))
            let data = position + 4
            guard data + length <= extensionsEnd else { return .malformed }
            if type == 0 {
                guard data + length <= end else { return incomplete }
                // server_name_list length (2), then entries: type (1), length (2), name.
                var entry = data + 2
                while entry + 3 <= data + length {
                    let nameLength = Int(payload.u16(at: entry + 1))
                    guard entry + 3 + nameLength <= data + length else { return .malformed }
                    if payload[entry] == 0, nameLength > 0 { return .serverName(entry + 3..<entry + 3 + nameLength) }
                    entry += 3 + nameLength
                }
                return .noServerName
            }
            position = data + length
        }
        return position < extensionsEnd ? incomplete : .noServerName
    }
}
