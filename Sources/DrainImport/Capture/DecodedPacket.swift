import DrainTrace

/// What the decoders read from one frame: addresses, ports, TCP state and where the transport
/// payload is. A plain value, reused for every packet.
struct DecodedPacket {
    var source = IPAddress(high: 0, low: 0)
    var destination = IPAddress(high: 0, low: 0)
    var sourcePort: UInt16 = 0
    var destinationPort: UInt16 = 0
    /// IP protocol number of the transport (6 TCP, 17 UDP, …).
    var transport: UInt8 = 0
    var tcpFlags: UInt8 = 0
    var sequence: UInt32 = 0
    /// Transport payload length on the wire, from the IP and transport headers.
    var payloadLength = 0
    /// Where the payload starts in the frame, and how many of its bytes the capture holds.
    var payloadOffset = 0
    var capturedPayload = 0
    /// Part of a fragmented IP datagram.
    var isFragment = false
    /// The transport header was not read (a non-first fragment, or cut by the snapshot
    /// length): ports are 0 and the packet goes to its addresses' port-less flow.
    var transportMissing = false
    /// Bytes of capture-only pseudo-headers (radiotap, PKTAP) in front of the frame.
    var pseudoHeaderBytes = 0
    /// The interface kind a per-packet header named (PKTAP), else `.unspecified`.
    var interfaceLink = LinkKind.unspecified
    /// The link layer addressed the frame to a group — an Ethernet destination with the
    /// group bit set (broadcast ff:ff:ff:ff:ff:ff or multicast), or a Linux cooked header's
    /// broadcast or multicast packet type — so it stays on the local link, whatever its IP
    /// destination (a subnet broadcast such as 192.168.1.255 is an ordinary address to IP).
    var linkGroupDestination = false

    mutating func reset() {
        sourcePort = 0
        destinationPort = 0
        tcpFlags = 0
        sequence = 0
        payloadLength = 0
        payloadOffset = 0
        capturedPayload = 0
        isFragment = false
        transportMissing = false
        pseudoHeaderBytes = 0
        interfaceLink = .unspecified
        linkGroupDestination = false
    }

    /// TCP flag bits.
    static let fin: UInt8 = 0x01
    static let syn: UInt8 = 0x02
    static let rst: UInt8 = 0x04
    static let ack: UInt8 = 0x10
}

/// Why a frame was not decoded.
enum FrameProblem: Sendable, Equatable {
    /// A well-formed frame that does not carry IPv4 or IPv6.
    case notIP(NonIPFrame)
    /// The capture's snapshot length cut the frame inside the IP header.
    case cut
    /// Headers contradict each other or run past the frame.
    case malformed(MalformedFrame)
    /// A per-packet header (PKTAP) names a link type this importer does not decode.
    case unsupportedLinkType(UInt32)
}

/// A frame that does not carry IP, for the `non-ip` diagnostic.
enum NonIPFrame: Sendable, Equatable {
    case etherType(UInt16)
    case pppProtocol(UInt16)
    case addressFamily(UInt32)
    case wifiNonData
    case wifiProtected
    case wifiAggregate
    case llc
    case pktapRecord(UInt32)

    var description: String {
        switch self {
        case let .etherType(type): "ethertype 0x\(hex(type, digits: 4))"
        case let .pppProtocol(proto): "PPP protocol 0x\(hex(proto, digits: 4))"
        case let .addressFamily(family): "address family \(family)"
        case .wifiNonData: "an 802.11 management, control or null-data frame"
        case .wifiProtected: "an encrypted 802.11 data frame"
        case .wifiAggregate: "an 802.11 A-MSDU aggregate"
        case .llc: "an 802.2 LLC frame without SNAP"
        case let .pktapRecord(type): "a PKTAP record of type \(type)"
        }
    }
}

/// What was wrong with a malformed frame, for the `malformed-packet` diagnostic.
enum MalformedFrame: Sendable, Equatable {
    case shortLinkHeader
    case badRadiotap
    case badPKTAPHeader
    case badIPVersion
    case badIPv4HeaderLength
    case badIPLength
    case badExtensionHeader
    case badTCPHeader
    case badUDPLength

    var description: String {
        switch self {
        case .shortLinkHeader: "the frame is shorter than its link-layer header"
        case .badRadiotap: "the radiotap header length is out of range"
        case .badPKTAPHeader: "the PKTAP header length is out of range"
        case .badIPVersion: "the IP version is not the one the link layer announced (or neither 4 nor 6)"
        case .badIPv4HeaderLength: "the IPv4 header length is below 20 bytes or past the end of the packet"
        case .badIPLength: "the IP length is shorter than its header or longer than the frame"
        case .badExtensionHeader: "an IPv6 extension header runs past the packet"
        case .badTCPHeader: "the TCP header length is below 20 bytes or past the end of the segment"
        case .badUDPLength: "the UDP length is shorter than its 8-byte header"
        }
    }
}

fileprivate func hex<T: BinaryInteger>(_ value: T, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
