import CPcap
import DrainTrace

/// The link-layer framings the importer decodes, by libpcap data link type (DLT).
enum LinkLayer: Sendable, Equatable {
    /// DLT_EN10MB (1), with 802.1Q/802.1ad VLAN tags, PPPoE sessions and LLC/SNAP.
    case ethernet
    /// DLT_LINUX_SLL (113): Linux "cooked" capture, 16-byte header.
    case linuxCooked
    /// DLT_LINUX_SLL2 (276): Linux cooked capture v2, 20-byte header.
    case linuxCooked2
    /// DLT_RAW (12 on most systems, 14 on OpenBSD; LINKTYPE_RAW 101 in files): IP, version
    /// from the first nibble.
    case rawIP
    /// DLT_IPV4 (228) and DLT_IPV6 (229).
    case ipv4, ipv6
    /// DLT_NULL (0): BSD loopback, a 4-byte address family in the writer's byte order.
    case null
    /// DLT_LOOP (108): OpenBSD loopback, the address family in network byte order.
    case loop
    /// DLT_PPP (9), DLT_PPP_SERIAL (50) and DLT_C_HDLC (104).
    case ppp
    /// DLT_IEEE802_11 (105): 802.11 frames; only unencrypted data frames carry IP.
    case ieee80211
    /// DLT_IEEE802_11_RADIO (127): 802.11 behind a radiotap header.
    case radiotap
    /// DLT_PKTAP (258): Apple's per-packet header naming the interface (macOS `tcpdump -k`,
    /// `rvictl` captures), then a frame of the link type it names.
    case pktap

    init?(dataLinkType: Int32) {
        switch dataLinkType {
        case 1: self = .ethernet
        case 113: self = .linuxCooked
        case 276: self = .linuxCooked2
        case 12, 14, 101: self = .rawIP
        case 228: self = .ipv4
        case 229: self = .ipv6
        case 0: self = .null
        case 108: self = .loop
        case 9, 50, 104: self = .ppp
        case 105: self = .ieee80211
        case 127: self = .radiotap
        case 258: self = .pktap
        default: return nil
        }
    }

    /// The interface kind the framing itself implies: 802.11 is Wi-Fi.
    var impliedLink: LinkKind {
        self == .ieee80211 || self == .radiotap ? .wifi : .unspecified
    }

    /// libpcap's name of a data link type (`EN10MB`), or `nil` if libpcap has none.
    static func name(ofDataLinkType type: Int32) -> String? {
        guard let name = pcap_datalink_val_to_name(type) else { return nil }
        return String(cString: name)
    }

    /// `link type 127 (IEEE802_11_RADIO)`, for messages.
    static func describe(dataLinkType type: Int32) -> String {
        name(ofDataLinkType: type).map { "link type \(type) (\($0))" } ?? "link type \(type)"
    }

    /// Linux cooked captures' packet types 1 (`PACKET_BROADCAST`) and 2 (`PACKET_MULTICAST`):
    /// frames another host sent to a group. The device's own group frames are type 4
    /// (outgoing), which does not say where they went.
    static func isGroupPacketType(_ type: UInt16) -> Bool {
        type == 1 || type == 2
    }

    enum Located {
        /// The IP header starts at `offset`; `version` is 4 or 6, or 0 to read it from the header.
        case ip(offset: Int, version: UInt8)
        case problem(FrameProblem)
    }

    /// Finds the IP header in a frame of `captured` bytes that was `wire` bytes long. Records
    /// pseudo-header bytes and a per-packet interface kind in `packet`. O(header length).
    func locate(_ frame: UnsafeRawBufferPointer, wire: Int, into packet: inout DecodedPacket) -> Located {
        let size = frame.count
        /// The frame needs `length` bytes: cut by the snapshot length, or malformed.
        func short(_ length: Int) -> Located {
            .problem(wire >= length ? .cut : .malformed(.shortLinkHeader))
        }
        switch self {
        case .ethernet:
            guard size >= 14 else { return short(14) }
            // The I/G bit: the first transmitted bit of the destination address.
            packet.linkGroupDestination = frame[0] & 0x01 != 0
            return Self.etherType(frame.u16(at: 12), at: 14, in: frame, wire: wire)
        case .linuxCooked:
            guard size >= 16 else { return short(16) }
            packet.linkGroupDestination = Self.isGroupPacketType(frame.u16(at: 0))
            return Self.etherType(frame.u16(at: 14), at: 16, in: frame, wire: wire, tags: false)
        case .linuxCooked2:
            guard size >= 20 else { return short(20) }
            packet.linkGroupDestination = Self.isGroupPacketType(UInt16(frame[10]))
            return Self.etherType(frame.u16(at: 0), at: 20, in: frame, wire: wire, tags: false)
        case .rawIP:
            return .ip(offset: 0, version: 0)
        case .ipv4:
            return .ip(offset: 0, version: 4)
        case .ipv6:
            return .ip(offset: 0, version: 6)
        case .null, .loop:
            guard size >= 4 else { return short(4) }
            var family = self == .loop ? frame.u32(at: 0) : frame.u32le(at: 0)
            if family & 0xFFFF_0000 != 0, family & 0xFFFF == 0 { family = family.byteSwapped }
            switch family {
            case 2: return .ip(offset: 4, version: 4)
            case 10, 24, 28, 30: return .ip(offset: 4, version: 6)
            default: return .problem(.notIP(.addressFamily(family)))
            }
        case .ppp:
            return Self.ppp(frame, wire: wire)
        case .ieee80211:
            return Self.wifi(frame, at: 0, wire: wire)
        case .radiotap:
            guard size >= 8 else { return short(8) }
            let length = Int(frame.u16le(at: 2))
            guard frame[0] == 0, length >= 8, length <= size else { return .problem(.malformed(.badRadiotap)) }
            packet.pseudoHeaderBytes = length
            return Self.wifi(frame, at: length, wire: wire)
        case .pktap:
            return Self.pktap(frame, wire: wire, into: &packet)
        }
    }

    /// Dispatches on an EtherType at `offset`, first skipping VLAN tags (802.1Q, 802.1ad and
    /// the old QinQ 0x9100, up to four), a PPPoE session header or an LLC/SNAP header.
    private static func etherType(
        _ first: UInt16, at start: Int, in frame: UnsafeRawBufferPointer, wire: Int, tags: Bool = true
    ) -> Located {
        var type = first
        var offset = start
        var tagsLeft = tags ? 4 : 0
        while tagsLeft > 0, type == 0x8100 || type == 0x88A8 || type == 0x9100 {
            guard offset + 4 <= frame.count else { return .problem(wire >= offset + 4 ? .cut : .malformed(.shortLinkHeader)) }
            type = frame.u16(at: offset + 2)
            offset += 4
            tagsLeft -= 1
        }
        switch type {
        case 0x0800:
            return .ip(offset: offset, version: 4)
        case 0x86DD:
            return .ip(offset: offset, version: 6)
        case 0x8864:
            guard offset + 8 <= frame.count else { return .problem(wire >= offset + 8 ? .cut : .malformed(.shortLinkHeader)) }
            switch frame.u16(at: offset + 6) {
            case 0x0021: return .ip(offset: offset + 8, version: 4)
            case 0x0057: return .ip(offset: offset + 8, version: 6)
            case let proto: return .problem(.notIP(.pppProtocol(proto)))
            }
        case ..<0x0600 where tags:
            // An 802.3 length field: the payload is LLC, carrying IP only behind SNAP.
            guard offset + 8 <= frame.count, frame[offset] == 0xAA, frame[offset + 1] == 0xAA, frame[offset + 2] == 0x03
            else { return .problem(.notIP(.llc)) }
            let inner = frame.u16(at: offset + 6)
            guard inner >= 0x0600 else { return .problem(.notIP(.llc)) }
            return etherType(inner, at: offset + 8, in: frame, wire: wire, tags: false)
        default:
            return .problem(.notIP(.etherType(type)))
        }
    }

    /// PPP with or without HDLC address/control bytes, and Cisco HDLC.
    private static func ppp(_ frame: UnsafeRawBufferPointer, wire: Int) -> Located {
        let size = frame.count
        guard size >= 2 else { return .problem(wire >= 2 ? .cut : .malformed(.shortLinkHeader)) }
        if frame[0] == 0x0F || frame[0] == 0x8F {
            guard size >= 4 else { return .problem(wire >= 4 ? .cut : .malformed(.shortLinkHeader)) }
            return etherType(frame.u16(at: 2), at: 4, in: frame, wire: wire, tags: false)
        }
        var offset = frame[0] == 0xFF && frame[1] == 0x03 ? 2 : 0
        guard offset < size else { return .problem(wire > offset ? .cut : .malformed(.shortLinkHeader)) }
        let proto: UInt16
        if frame[offset] & 1 == 1 {
            proto = UInt16(frame[offset])
            offset += 1
        } else {
            guard offset + 2 <= size else { return .problem(wire >= offset + 2 ? .cut : .malformed(.shortLinkHeader)) }
            proto = frame.u16(at: offset)
            offset += 2
        }
        switch proto {
        case 0x21: return .ip(offset: offset, version: 4)
        case 0x57: return .ip(offset: offset, version: 6)
        default: return .problem(.notIP(.pppProtocol(proto)))
        }
    }

    /// An 802.11 frame at `start`: unencrypted data frames with an LLC/SNAP header carry IP.
    private static func wifi(_ frame: UnsafeRawBufferPointer, at start: Int, wire: Int) -> Located {
        guard start + 2 <= frame.count else {
            return .problem(wire >= start + 2 ? .cut : .malformed(.shortLinkHeader))
        }
        let control = frame[start]
        let flags = frame[start + 1]
        let type = (control >> 2) & 0x3
        let subtype = control >> 4
        // Management and control frames (an ACK is 10 bytes) carry no IP; check before lengths.
        guard type == 2, subtype & 0x4 == 0 else { return .problem(.notIP(.wifiNonData)) }
        guard start + 24 <= frame.count else {
            return .problem(wire >= start + 24 ? .cut : .malformed(.shortLinkHeader))
        }
        guard flags & 0x40 == 0 else { return .problem(.notIP(.wifiProtected)) }
        var header = 24
        if flags & 0x03 == 0x03 { header += 6 }
        if subtype & 0x8 != 0 {
            let qos = start + header
            header += 2
            if flags & 0x80 != 0 { header += 4 }
            guard qos < frame.count else { return .problem(wire > qos ? .cut : .malformed(.shortLinkHeader)) }
            if frame[qos] & 0x80 != 0 { return .problem(.notIP(.wifiAggregate)) }
        }
        let llc = start + header
        guard llc + 8 <= frame.count else { return .problem(wire >= llc + 8 ? .cut : .malformed(.shortLinkHeader)) }
        guard frame[llc] == 0xAA, frame[llc + 1] == 0xAA, frame[llc + 2] == 0x03 else { return .problem(.notIP(.llc)) }
        return etherType(frame.u16(at: llc + 6), at: llc + 8, in: frame, wire: wire, tags: false)
    }

    /// Apple's PKTAP header (little-endian fields): length, record type, the inner DLT and the
    /// interface name, then the frame.
    private static func pktap(_ frame: UnsafeRawBufferPointer, wire: Int, into packet: inout DecodedPacket) -> Located {
        guard frame.count >= 36 else { return .problem(wire >= 36 ? .cut : .malformed(.badPKTAPHeader)) }
        let length = Int(frame.u32le(at: 0))
        guard length >= 36, length <= frame.count else { return .problem(.malformed(.badPKTAPHeader)) }
        let record = frame.u32le(at: 4)
        guard record == 1 else { return .problem(.notIP(.pktapRecord(record))) }
        let innerType = frame.u32le(at: 8)
        guard innerType <= UInt32(Int32.max), let inner = LinkLayer(dataLinkType: Int32(innerType)), inner != .pktap else {
            return .problem(.unsupportedLinkType(innerType))
        }
        let name = frame.slice(12..<36)
        packet.interfaceLink = LinkKind(interfaceName: name.prefix { $0 != 0 })
        packet.pseudoHeaderBytes = 0
        let rest = frame.slice(length..<frame.count)
        switch inner.locate(rest, wire: wire - length, into: &packet) {
        case let .ip(offset, version):
            packet.pseudoHeaderBytes += length
            return .ip(offset: offset + length, version: version)
        case let .problem(problem):
            return .problem(problem)
        }
    }
}
