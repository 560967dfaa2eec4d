/// Decodes a frame down to its transport header without allocating: link layer, IPv4 or
/// IPv6 (extension headers walked, fragments recognised), then TCP or UDP. Every read is
/// bounds-checked against the captured bytes; lengths are checked against the wire length, so
/// a frame cut by the snapshot length is told apart from a malformed one.
struct PacketDecoder: Sendable {
    let link: LinkLayer

    /// The most IPv6 extension headers walked before giving up on a packet.
    static let extensionHeaderLimit = 16

    /// Decodes `frame` (the captured bytes) of a packet `wire` bytes long into `packet`.
    /// Returns `nil` on success, else why the frame was not decoded. O(header length).
    func decode(_ frame: UnsafeRawBufferPointer, wire: Int, into packet: inout DecodedPacket) -> FrameProblem? {
        packet.reset()
        switch link.locate(frame, wire: wire, into: &packet) {
        case let .problem(problem):
            return problem
        case let .ip(offset, announced):
            guard offset < frame.count else { return wire > offset ? .cut : .malformed(.shortLinkHeader) }
            let version = frame[offset] >> 4
            guard version == 4 || version == 6, announced == 0 || announced == version else {
                return .malformed(.badIPVersion)
            }
            return version == 4
                ? ipv4(frame, at: offset, wire: wire, into: &packet)
                : ipv6(frame, at: offset, wire: wire, into: &packet)
        }
    }

    private func ipv4(
        _ frame: UnsafeRawBufferPointer, at start: Int, wire: Int, into packet: inout DecodedPacket
    ) -> FrameProblem? {
        let available = wire - start
        guard start + 20 <= frame.count else { return available >= 20 ? .cut : .malformed(.badIPLength) }
        let headerLength = Int(frame[start] & 0x0F) * 4
        guard headerLength >= 20 else { return .malformed(.badIPv4HeaderLength) }
        var total = Int(frame.u16(at: start + 2))
        // 0 is what captures of TCP segmentation offload show; the frame gives the length.
        if total == 0 { total = available }
        guard total >= headerLength, total <= available else {
            return headerLength > available ? .malformed(.badIPv4HeaderLength) : .malformed(.badIPLength)
        }
        guard start + headerLength <= frame.count else { return .cut }
        let fragment = frame.u16(at: start + 6)
        let fragmentOffset = fragment & 0x1FFF
        packet.isFragment = fragment & 0x2000 != 0 || fragmentOffset != 0
        packet.transport = frame[start + 9]
        packet.source = IPAddress.v4(frame, at: start + 12)
        packet.destination = IPAddress.v4(frame, at: start + 16)
        if fragmentOffset != 0 {
            packet.transportMissing = true
            return nil
        }
        let end = min(frame.count, start + total)
        return transport(frame, at: start + headerLength, length: total - headerLength, capturedEnd: end, into: &packet)
    }

    private func ipv6(
        _ frame: UnsafeRawBufferPointer, at start: Int, wire: Int, into packet: inout DecodedPacket
    ) -> FrameProblem? {
        let available = wire - start
        guard start + 40 <= frame.count else { return available >= 40 ? .cut : .malformed(.badIPLength) }
        var remaining = Int(frame.u16(at: start + 4))
        // 0 is a jumbogram or segmentation offload; the frame gives the length.
        if remaining == 0 { remaining = available - 40 }
        guard remaining <= available - 40 else { return .malformed(.badIPLength) }
        packet.source = IPAddress.v6(frame, at: start + 8)
        packet.destination = IPAddress.v6(frame, at: start + 24)
        let ipEnd = start + 40 + remaining
        let end = min(frame.count, ipEnd)
        var next = frame[start + 6]
        var cursor = start + 40
        for _ in 0..<Self.extensionHeaderLimit {
            let length: Int
            switch next {
            case 0, 43, 60, 135, 139, 140:
                guard cursor + 2 <= end else { return missingHeader(next, needs: cursor + 2, ipEnd: ipEnd, into: &packet) }
                length = (Int(frame[cursor + 1]) + 1) * 8
            case 51:
                guard cursor + 2 <= end else { return missingHeader(next, needs: cursor + 2, ipEnd: ipEnd, into: &packet) }
                length = (Int(frame[cursor + 1]) + 2) * 4
            case 44:
                guard cursor + 8 <= end else { return missingHeader(next, needs: cursor + 8, ipEnd: ipEnd, into: &packet) }
                length = 8
                packet.isFragment = true
                if frame.u16(at: cursor + 2) >> 3 != 0 {
                    packet.transport = frame[cursor]
                    packet.transportMissing = true
                    return nil
                }
            default:
                packet.transport = next
                return transport(frame, at: cursor, length: remaining, capturedEnd: end, into: &packet)
            }
            guard length <= remaining else { return .malformed(.badExtensionHeader) }
            next = frame[cursor]
            cursor += length
            remaining -= length
        }
        return .malformed(.badExtensionHeader)
    }

    /// An IPv6 extension header needs the bytes up to `needs`: within the IP length the
    /// snapshot length cut them (the packet still counts, without ports), past it the packet
    /// is malformed.
    private func missingHeader(_ header: UInt8, needs: Int, ipEnd: Int, into packet: inout DecodedPacket) -> FrameProblem? {
        guard needs <= ipEnd else { return .malformed(.badExtensionHeader) }
        packet.transport = header
        packet.transportMissing = true
        return nil
    }

    /// Reads the TCP or UDP header at `start`; `length` is the transport segment's length on
    /// the wire and `capturedEnd` where the captured bytes of the datagram end.
    private func transport(
        _ frame: UnsafeRawBufferPointer, at start: Int, length: Int, capturedEnd: Int, into packet: inout DecodedPacket
    ) -> FrameProblem? {
        let captured = max(0, capturedEnd - start)
        switch packet.transport {
        case 6:
            guard length >= 20 else { return .malformed(.badTCPHeader) }
            guard captured >= 20 else {
                packet.transportMissing = true
                return nil
            }
            let headerLength = Int(frame[start + 12] >> 4) * 4
            guard headerLength >= 20, headerLength <= length else { return .malformed(.badTCPHeader) }
            packet.sourcePort = frame.u16(at: start)
            packet.destinationPort = frame.u16(at: start + 2)
            packet.sequence = frame.u32(at: start + 4)
            packet.tcpFlags = frame[start + 13]
            packet.payloadLength = length - headerLength
            packet.payloadOffset = start + headerLength
            packet.capturedPayload = max(0, captured - headerLength)
        case 17:
            guard length >= 8 else { return .malformed(.badUDPLength) }
            guard captured >= 8 else {
                packet.transportMissing = true
                return nil
            }
            let udpLength = Int(frame.u16(at: start + 4))
            guard udpLength == 0 || udpLength >= 8 else { return .malformed(.badUDPLength) }
            packet.sourcePort = frame.u16(at: start)
            packet.destinationPort = frame.u16(at: start + 2)
            packet.payloadLength = (udpLength == 0 || packet.isFragment ? length : min(udpLength, length)) - 8
            packet.payloadOffset = start + 8
            packet.capturedPayload = min(packet.payloadLength, captured - 8)
        default:
            break
        }
        return nil
    }
}
