import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds pcap and pcapng captures in memory for tests: the file formats (both byte orders,
/// micro- and nanosecond pcap, Kuznetsov's modified pcap, pcapng with named interfaces), link-layer framings, IPv4/IPv6,
/// TCP/UDP, and the application payloads the capture importer reads (DNS responses, TLS
/// ClientHello, HTTP/1.1 heads). Checksums are left zero: the importer does not check them.
public struct PcapWriter {
    public enum Precision: Sendable { case microseconds, nanoseconds }
    public enum ByteOrder: Sendable { case little, big }
    /// The savefile variant: libpcap's standard one, or Alexey Kuznetsov's modified pcap
    /// (magic `a1b2cd34`, microseconds) whose record headers add an interface index, a
    /// protocol and a packet type: 24 bytes instead of 16.
    public enum Variant: Sendable { case standard, modified }

    public let linkType: UInt32
    public let precision: Precision
    public let byteOrder: ByteOrder
    public let variant: Variant
    /// The file so far.
    public private(set) var bytes: [UInt8] = []

    /// A pcap file with the given link type (LINKTYPE_ value), snapshot length and format. The
    /// modified variant is microseconds only.
    public init(
        linkType: UInt32, snapLength: UInt32 = 262_144, precision: Precision = .microseconds, byteOrder: ByteOrder = .little,
        variant: Variant = .standard
    ) {
        precondition(variant == .standard || precision == .microseconds, "modified pcap has microseconds")
        self.linkType = linkType
        self.precision = precision
        self.byteOrder = byteOrder
        self.variant = variant
        put32(variant == .modified ? 0xA1B2_CD34 : precision == .microseconds ? 0xA1B2_C3D4 : 0xA1B2_3C4D)
        put16(2)
        put16(4)
        put32(0)
        put32(0)
        put32(snapLength)
        put32(linkType)
    }

    /// Adds a packet at `time` (seconds since the Unix epoch), keeping the first `captured`
    /// bytes of `frame` (all by default); its wire length is `frame.count` unless given.
    public mutating func add(at time: Double, _ frame: [UInt8], captured: Int? = nil, wireLength: Int? = nil) {
        add(nanoseconds: nanoseconds(time), frame, captured: captured, wireLength: wireLength)
    }

    /// Adds a packet at `nanoseconds` since the Unix epoch.
    public mutating func add(nanoseconds: Int64, _ frame: [UInt8], captured: Int? = nil, wireLength: Int? = nil) {
        let kept = min(captured ?? frame.count, frame.count)
        put32(UInt32(nanoseconds / 1_000_000_000))
        let fraction = nanoseconds % 1_000_000_000
        put32(UInt32(precision == .microseconds ? fraction / 1000 : fraction))
        put32(UInt32(kept))
        put32(UInt32(wireLength ?? frame.count))
        if variant == .modified {
            put32(2)  // interface index
            put16(0x0800)  // protocol
            bytes += [0, 0]  // packet type (to us), padding
        }
        bytes += frame[0..<kept]
    }

    /// Writes the file to `url`.
    public func write(to url: URL) throws {
        try Data(bytes).write(to: url)
    }

    private mutating func put16(_ value: UInt16) {
        let ordered = byteOrder == .little ? value.littleEndian : value.bigEndian
        withUnsafeBytes(of: ordered) { bytes += $0 }
    }

    private mutating func put32(_ value: UInt32) {
        let ordered = byteOrder == .little ? value.littleEndian : value.bigEndian
        withUnsafeBytes(of: ordered) { bytes += $0 }
    }
}

/// Builds a pcapng file: one section, interfaces with names and timestamp resolutions, and
/// Enhanced Packet Blocks.
public struct PcapngWriter {
    public let byteOrder: PcapWriter.ByteOrder
    public private(set) var bytes: [UInt8] = []
    private var resolutions: [UInt8] = []

    public init(byteOrder: PcapWriter.ByteOrder = .little) {
        self.byteOrder = byteOrder
        var body: [UInt8] = []
        append32(0x1A2B_3C4D, to: &body)
        append16(1, to: &body)
        append16(0, to: &body)
        body += [UInt8](repeating: 0xFF, count: 8)
        block(type: 0x0A0D_0D0A, body: body)
    }

    /// Adds an Interface Description Block and returns the interface's number. `resolution`
    /// is `if_tsresol` as a power of ten (6: microseconds, 9: nanoseconds).
    @discardableResult
    public mutating func addInterface(linkType: UInt16, name: String? = nil, snapLength: UInt32 = 0, resolution: UInt8 = 6) -> Int {
        var body: [UInt8] = []
        append16(linkType, to: &body)
        append16(0, to: &body)
        append32(snapLength, to: &body)
        if let name { option(2, Array(name.utf8), to: &body) }
        if resolution != 6 { option(9, [resolution], to: &body) }
        if name != nil || resolution != 6 { option(0, [], to: &body) }
        block(type: 1, body: body)
        resolutions.append(resolution)
        return resolutions.count - 1
    }

    /// Adds an Enhanced Packet Block on `interface` at `time` seconds since the Unix epoch.
    public mutating func add(interface: Int, at time: Double, _ frame: [UInt8], captured: Int? = nil) {
        add(interface: interface, nanoseconds: DrainTestSupport.nanoseconds(time), frame, captured: captured)
    }

    /// Adds an Enhanced Packet Block on `interface` at `nanoseconds` since the Unix epoch (cut
    /// to the interface's resolution).
    public mutating func add(interface: Int, nanoseconds: Int64, _ frame: [UInt8], captured: Int? = nil) {
        var ticksPerSecond: Int64 = 1
        for _ in 0..<resolutions[interface] { ticksPerSecond *= 10 }
        let ticks = UInt64(nanoseconds / (1_000_000_000 / ticksPerSecond))
        let kept = min(captured ?? frame.count, frame.count)
        var body: [UInt8] = []
        append32(UInt32(interface), to: &body)
        append32(UInt32(ticks >> 32), to: &body)
        append32(UInt32(ticks & 0xFFFF_FFFF), to: &body)
        append32(UInt32(kept), to: &body)
        append32(UInt32(frame.count), to: &body)
        body += frame[0..<kept]
        while body.count % 4 != 0 { body.append(0) }
        block(type: 6, body: body)
    }

    public func write(to url: URL) throws {
        try Data(bytes).write(to: url)
    }

    private mutating func block(type: UInt32, body: [UInt8]) {
        let length = UInt32(12 + body.count)
        var block: [UInt8] = []
        append32(type, to: &block)
        append32(length, to: &block)
        block += body
        append32(length, to: &block)
        bytes += block
    }

    private func option(_ code: UInt16, _ value: [UInt8], to body: inout [UInt8]) {
        append16(code, to: &body)
        append16(UInt16(value.count), to: &body)
        body += value
        while body.count % 4 != 0 { body.append(0) }
    }

    private func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        let ordered = byteOrder == .little ? value.littleEndian : value.bigEndian
        withUnsafeBytes(of: ordered) { bytes += $0 }
    }

    private func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        let ordered = byteOrder == .little ? value.littleEndian : value.bigEndian
        withUnsafeBytes(of: ordered) { bytes += $0 }
    }
}

/// Link-layer framings around an IP packet.
public enum Frame {
    /// LINKTYPE_ values.
    public static let ethernetType: UInt32 = 1
    public static let linuxCookedType: UInt32 = 113
    public static let linuxCooked2Type: UInt32 = 276
    public static let rawType: UInt32 = 101
    public static let ipv4Type: UInt32 = 228
    public static let ipv6Type: UInt32 = 229
    public static let nullType: UInt32 = 0
    public static let loopType: UInt32 = 108
    public static let pppType: UInt32 = 9
    public static let radiotapType: UInt32 = 127
    public static let pktapType: UInt32 = 258

    /// The EtherType of an IP packet, from its version nibble.
    static func etherType(_ ip: [UInt8]) -> UInt16 {
        ip.first.map { $0 >> 4 == 6 } == true ? 0x86DD : 0x0800
    }

    /// The Ethernet broadcast address.
    public static let broadcastMAC: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// Ethernet II, with 802.1Q tags (outermost first; `outerTagType` 0x88A8 for an 802.1ad outer tag),
    /// to `destination` (by default a unicast, locally administered address).
    public static func ethernet(
        _ ip: [UInt8], vlans: [UInt16] = [], outerTagType: UInt16 = 0x8100, etherType type: UInt16? = nil,
        destination: [UInt8] = [0x02, 0, 0, 0, 0, 0x02]
    ) -> [UInt8] {
        var frame: [UInt8] = destination + [0x02, 0, 0, 0, 0, 0x01]
        for (index, vlan) in vlans.enumerated() {
            frame += be16(index == 0 ? outerTagType : 0x8100)
            frame += be16(vlan & 0x0FFF)
        }
        frame += be16(type ?? etherType(ip))
        return frame + ip
    }

    /// Linux cooked capture v1; `packetType` 4 means sent by this host.
    public static func linuxCooked(_ ip: [UInt8], packetType: UInt16 = 0) -> [UInt8] {
        be16(packetType) + be16(1) + be16(6) + [0x02, 0, 0, 0, 0, 0x01, 0, 0] + be16(etherType(ip)) + ip
    }

    /// Linux cooked capture v2.
    public static func linuxCooked2(_ ip: [UInt8], packetType: UInt8 = 0) -> [UInt8] {
        be16(etherType(ip)) + [0, 0] + be32(2) + be16(1) + [packetType, 6] + [0x02, 0, 0, 0, 0, 0x01, 0, 0] + ip
    }

    /// BSD loopback: the address family in the writer's byte order (Darwin's AF_INET6 is 30).
    public static func null(_ ip: [UInt8], bigEndian: Bool = false, ipv6Family: UInt32 = 30) -> [UInt8] {
        let family: UInt32 = ip.first.map { $0 >> 4 == 6 } == true ? ipv6Family : 2
        return (bigEndian ? be32(family) : le32(family)) + ip
    }

    /// OpenBSD loopback: the address family in network byte order (OpenBSD's AF_INET6 is 24).
    public static func loop(_ ip: [UInt8]) -> [UInt8] {
        be32(ip.first.map { $0 >> 4 == 6 } == true ? 24 : 2) + ip
    }

    /// PPP in HDLC-like framing.
    public static func ppp(_ ip: [UInt8]) -> [UInt8] {
        [0xFF, 0x03] + be16(ip.first.map { $0 >> 4 == 6 } == true ? 0x0057 : 0x0021) + ip
    }

    /// An 802.11 QoS data frame from a station to its access point behind a radiotap header
    /// (8 bytes plus a flags field); `protected` sets the encryption bit.
    public static func radiotap(_ ip: [UInt8], protected: Bool = false) -> [UInt8] {
        let radiotap: [UInt8] = [0, 0] + le16(10) + le32(0x0000_0002) + [0x00, 0x00]
        let control: [UInt8] = [0x88, protected ? 0x41 : 0x01]
        var wifi = control + [0, 0]
        wifi += [0x02, 0, 0, 0, 0, 0xAA] + [0x02, 0, 0, 0, 0, 0x01] + [0x02, 0, 0, 0, 0, 0xAA]
        wifi += [0, 0] + [0, 0]
        return radiotap + wifi + [0xAA, 0xAA, 0x03, 0, 0, 0] + be16(etherType(ip)) + ip
    }

    /// An 802.11 beacon (management frame) behind radiotap: no IP.
    public static func radiotapBeacon() -> [UInt8] {
        [0, 0] + le16(8) + le32(0) + [0x80, 0x00, 0, 0] + [UInt8](repeating: 0xFF, count: 6) + [UInt8](repeating: 0x02, count: 12)
            + [0, 0] + [UInt8](repeating: 0, count: 12)
    }

    /// Apple PKTAP: a 108-byte little-endian header naming the interface, then an Ethernet
    /// frame (`innerType` 1) or another frame of `innerType`.
    public static func pktap(_ inner: [UInt8], interface: String, innerType: UInt32 = 1) -> [UInt8] {
        var header = le32(108) + le32(1) + le32(innerType)
        var name = Array(interface.utf8.prefix(23))
        name += [UInt8](repeating: 0, count: 24 - name.count)
        header += name
        header += [UInt8](repeating: 0, count: 108 - header.count)
        return header + inner
    }
}

/// IPv4 and IPv6 packets around a transport segment.
public enum IPPacket {
    /// An IPv4 or IPv6 address from its text; traps on bad test input.
    public static func address(_ text: String) -> [UInt8] {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4.s_addr) { Array($0) } }
        var v6 = in6_addr()
        precondition(inet_pton(AF_INET6, text, &v6) == 1, "not an address: \(text)")
        return withUnsafeBytes(of: v6) { Array($0) }
    }

    /// An IPv4 packet; `fragmentOffset` in 8-byte units. `totalLength` overrides the header's
    /// length field.
    public static func v4(
        from source: String, to destination: String, protocol number: UInt8, _ payload: [UInt8], identification: UInt16 = 1,
        moreFragments: Bool = false, fragmentOffset: UInt16 = 0, totalLength: UInt16? = nil
    ) -> [UInt8] {
        var header: [UInt8] = [0x45, 0] + be16(totalLength ?? UInt16(20 + payload.count)) + be16(identification)
        header += be16((moreFragments ? 0x2000 : 0) | (fragmentOffset & 0x1FFF))
        header += [64, number, 0, 0] + address(source) + address(destination)
        var sum: UInt32 = 0
        for index in stride(from: 0, to: 20, by: 2) { sum += UInt32(header[index]) << 8 | UInt32(header[index + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        header[10] = UInt8(~sum >> 8 & 0xFF)
        header[11] = UInt8(~sum & 0xFF)
        return header + payload
    }

    /// An IPv6 extension header: its type and its bytes after the next-header byte (the
    /// length byte included), padded by the caller to a multiple of 8 bytes overall.
    public struct Extension: Sendable {
        public var type: UInt8
        public var body: [UInt8]

        public init(type: UInt8, body: [UInt8]) {
            self.type = type
            self.body = body
        }

        /// Hop-by-hop (0) or destination options (60) with one PadN option: 8 bytes.
        public static func options(_ type: UInt8) -> Extension {
            Extension(type: type, body: [0, 1, 4, 0, 0, 0, 0])
        }

        /// A type-0-style routing header (43) with segments left 0: 8 bytes.
        public static let routing = Extension(type: 43, body: [0, 0, 0, 0, 0, 0, 0])

        /// A fragment header (44); `offset` in 8-byte units.
        public static func fragment(offset: UInt16, more: Bool, identification: UInt32 = 7) -> Extension {
            Extension(type: 44, body: [0] + be16(offset << 3 | (more ? 1 : 0)) + be32(identification))
        }

        /// An authentication header (51) with a 12-byte ICV: 24 bytes (length field 4).
        public static let authentication = Extension(type: 51, body: [4, 0, 0] + be32(0x100) + be32(1) + [UInt8](repeating: 0, count: 12))
    }

    /// An IPv6 packet, with extension headers in order before the transport.
    public static func v6(
        from source: String, to destination: String, nextHeader: UInt8, _ payload: [UInt8], extensions: [Extension] = []
    ) -> [UInt8] {
        var chain: [UInt8] = []
        for (index, header) in extensions.enumerated() {
            let next = index + 1 < extensions.count ? extensions[index + 1].type : nextHeader
            chain += [next] + header.body
        }
        let first = extensions.first?.type ?? nextHeader
        return [0x60, 0, 0, 0] + be16(UInt16(chain.count + payload.count)) + [first, 64] + address(source) + address(destination)
            + chain + payload
    }

    /// TCP flag bits.
    public static let fin: UInt8 = 0x01
    public static let syn: UInt8 = 0x02
    public static let rst: UInt8 = 0x04
    public static let psh: UInt8 = 0x08
    public static let ack: UInt8 = 0x10

    /// A TCP segment with a 20-byte header.
    public static func tcp(
        _ sourcePort: UInt16, _ destinationPort: UInt16, seq: UInt32, ack acknowledgment: UInt32 = 0, flags: UInt8 = 0x10,
        _ payload: [UInt8] = []
    ) -> [UInt8] {
        be16(sourcePort) + be16(destinationPort) + be32(seq) + be32(acknowledgment) + [0x50, flags] + be16(65535)
            + [0, 0, 0, 0] + payload
    }

    /// A UDP datagram.
    public static func udp(_ sourcePort: UInt16, _ destinationPort: UInt16, _ payload: [UInt8]) -> [UInt8] {
        be16(sourcePort) + be16(destinationPort) + be16(UInt16(8 + payload.count)) + [0, 0] + payload
    }

    /// An IPv4 or IPv6 TCP packet between `source` and `destination` (family from the text).
    public static func tcp(
        from source: String, _ sourcePort: UInt16, to destination: String, _ destinationPort: UInt16, seq: UInt32,
        ack acknowledgment: UInt32 = 0, flags: UInt8 = 0x10, _ payload: [UInt8] = []
    ) -> [UInt8] {
        let segment = tcp(sourcePort, destinationPort, seq: seq, ack: acknowledgment, flags: flags, payload)
        return source.contains(":")
            ? v6(from: source, to: destination, nextHeader: 6, segment) : v4(from: source, to: destination, protocol: 6, segment)
    }

    /// An IPv4 or IPv6 UDP packet.
    public static func udp(from source: String, _ sourcePort: UInt16, to destination: String, _ destinationPort: UInt16, _ payload: [UInt8]) -> [UInt8] {
        let datagram = udp(sourcePort, destinationPort, payload)
        return source.contains(":")
            ? v6(from: source, to: destination, nextHeader: 17, datagram) : v4(from: source, to: destination, protocol: 17, datagram)
    }
}

/// DNS messages.
public enum DNS {
    public enum Answer: Sendable {
        case a(String, String)
        case aaaa(String, String)
        case cname(String, String)
    }

    /// A response to a query for `question` (type A) with `answers`, names compressed against
    /// every name already written (as servers do).
    public static func response(id: UInt16 = 0x1234, question: String, answers: [Answer]) -> [UInt8] {
        var message = be16(id) + be16(0x8180) + be16(1) + be16(UInt16(answers.count)) + be16(0) + be16(0)
        var written: [String: Int] = [:]
        func name(_ text: String) {
            var labels = text.split(separator: ".").map(String.init)
            while !labels.isEmpty {
                let suffix = labels.joined(separator: ".").lowercased()
                if let offset = written[suffix] {
                    message += be16(0xC000 | UInt16(offset))
                    return
                }
                written[suffix] = message.count
                let label = Array(labels.removeFirst().utf8)
                message += [UInt8(label.count)] + label
            }
            message.append(0)
        }
        name(question)
        message += be16(1) + be16(1)
        for answer in answers {
            switch answer {
            case let .a(owner, address):
                name(owner)
                message += be16(1) + be16(1) + be32(60) + be16(4) + IPPacket.address(address)
            case let .aaaa(owner, address):
                name(owner)
                message += be16(28) + be16(1) + be32(60) + be16(16) + IPPacket.address(address)
            case let .cname(owner, target):
                name(owner)
                let lengthAt = message.count + 8
                message += be16(5) + be16(1) + be32(60) + be16(0)
                let start = message.count
                name(target)
                let length = UInt16(message.count - start)
                message[lengthAt] = UInt8(length >> 8)
                message[lengthAt + 1] = UInt8(length & 0xFF)
            }
        }
        return message
    }
}

/// TLS records.
public enum TLS {
    /// A TLS 1.2-style ClientHello record with a server name (SNI) extension (when given)
    /// placed after `paddingBytes` of padding extension, so that a large padding pushes the
    /// name past the first TCP segment.
    public static func clientHello(serverName: String?, paddingBytes: Int = 0) -> [UInt8] {
        var extensions: [UInt8] = []
        if paddingBytes > 0 {
            extensions += be16(21) + be16(UInt16(paddingBytes)) + [UInt8](repeating: 0, count: paddingBytes)
        }
        if let serverName {
            let name = Array(serverName.utf8)
            let entry: [UInt8] = [0] + be16(UInt16(name.count)) + name
            extensions += be16(0) + be16(UInt16(entry.count + 2)) + be16(UInt16(entry.count)) + entry
        }
        extensions += be16(43) + be16(3) + [2, 0x03, 0x04]
        var hello: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0x5A, count: 32) + [0]
        hello += be16(4) + [0x13, 0x01, 0x13, 0x02] + [1, 0]
        hello += be16(UInt16(extensions.count)) + extensions
        let handshake: [UInt8] = [1, 0] + be16(UInt16(hello.count)) + hello
        return [0x16, 0x03, 0x01] + be16(UInt16(handshake.count)) + handshake
    }

    /// The start of a ServerHello record (enough to be recognised as TLS).
    public static func serverHello() -> [UInt8] {
        let hello: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0x33, count: 32) + [0, 0x13, 0x01, 0]
        let handshake: [UInt8] = [2, 0] + be16(UInt16(hello.count)) + hello
        return [0x16, 0x03, 0x03] + be16(UInt16(handshake.count)) + handshake
    }
}

/// HTTP/1.1 heads.
public enum HTTP {
    public static func request(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8] = []) -> [UInt8] {
        head("\(method) \(path) HTTP/1.1", headers) + body
    }

    public static func response(_ status: Int, headers: [(String, String)], body: [UInt8] = []) -> [UInt8] {
        head("HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")", headers) + body
    }

    private static func head(_ first: String, _ headers: [(String, String)]) -> [UInt8] {
        var text = first + "\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }
}

private func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
private func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
private func le32(_ value: UInt32) -> [UInt8] { be32(value).reversed() }

/// Seconds since the epoch to nanoseconds, exact to the nanosecond for times with up to nine
/// decimals (the fraction is scaled apart from the whole seconds).
public func nanoseconds(_ seconds: Double) -> Int64 {
    let whole = seconds.rounded(.down)
    return Int64(whole) * 1_000_000_000 + Int64(((seconds - whole) * 1e9).rounded())
}

/// Writes `bytes` to a fresh temporary file, runs `body` with its path, and removes it.
public func withTemporaryFile<T>(_ bytes: [UInt8], name: String = "capture.pcap", _ body: (String) throws -> T) throws -> T {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return try body(url.path)
}
