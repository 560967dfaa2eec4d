/// Finds the server name (SNI) in a TLS ClientHello at the start of a TCP payload, in place.
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

    /// Reads the ClientHello at the start of `payload`. O(extensions).
    static func read(_ payload: UnsafeRawBufferPointer) -> Outcome {
        guard isHandshake(payload) else { return .notTLS }
        guard payload[5] == 1 else { return .otherHandshake }
        let recordEnd = 5 + Int(payload.u16(at: 3))
        let end = min(recordEnd, payload.count)
        let incomplete: Outcome = recordEnd > payload.count ? .incomplete(total: recordEnd) : .malformed
        // Handshake header (4), client version (2), random (32), then the session id.
        var position = 5 + 4 + 2 + 32
        guard position + 1 <= end else { return incomplete }
        position += 1 + Int(payload[position])
        guard position + 2 <= end else { return incomplete }
        position += 2 + Int(payload.u16(at: position))
        guard position + 1 <= end else { return incomplete }
        position += 1 + Int(payload[position])
        guard position + 2 <= end else { return position == recordEnd ? .noServerName : incomplete }
        let extensionsEnd = min(position + 2 + Int(payload.u16(at: position)), recordEnd)
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
