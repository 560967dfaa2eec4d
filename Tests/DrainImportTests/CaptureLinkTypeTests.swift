import DrainImport
import DrainTestSupport
import DrainTrace
import Testing

/// Reads a capture built in memory.
func importCapture(_ bytes: [UInt8], options: CaptureOptions = CaptureOptions(), name: String = "capture.pcap") throws
    -> ImportedInput
{
    try withTemporaryFile(bytes, name: name) { path in try CaptureImporter.read(path: path, inputIndex: 0, options: options) }
}

/// The connection label and endpoint of the test captures' usual TCP connection.
let deviceV4 = "192.168.1.2"
let serverV4 = "93.184.216.34"
let connectionV4 = "tcp 192.168.1.2:50000 → 93.184.216.34:443"

/// A SYN from the device to the server, 40 bytes of IPv4.
func synV4() -> [UInt8] {
    IPPacket.tcp(from: deviceV4, 50000, to: serverV4, 443, seq: 1000, flags: IPPacket.syn)
}

extension ImportedInput {
    /// The string of an id in the timeline's table.
    func text(_ id: StringID) -> String { timeline.strings[id] }

    /// The diagnostic with `code`, if any.
    func diagnostic(_ code: String) -> ImportDiagnostic? {
        info.diagnostics.entries.first { $0.code == code }
    }
}

/// Every supported framing around one IPv4 TCP SYN: the packet is found, its bytes are the
/// frame without capture-only pseudo-headers, and the flow is directed from the device.
@Suite struct CaptureLinkTypeTests {
    enum Framing: String, CaseIterable, Sendable {
        case ethernet, vlan, qinq, linuxCooked, linuxCooked2, raw, rawIPv4, nullLittle, nullBig, loop, ppp, radiotap, pktap

        var linkType: UInt32 {
            switch self {
            case .ethernet, .vlan, .qinq: Frame.ethernetType
            case .linuxCooked: Frame.linuxCookedType
            case .linuxCooked2: Frame.linuxCooked2Type
            case .raw: Frame.rawType
            case .rawIPv4: Frame.ipv4Type
            case .nullLittle, .nullBig: Frame.nullType
            case .loop: Frame.loopType
            case .ppp: Frame.pppType
            case .radiotap: Frame.radiotapType
            case .pktap: Frame.pktapType
            }
        }

        func frame(_ ip: [UInt8]) -> [UInt8] {
            switch self {
            case .ethernet: Frame.ethernet(ip)
            case .vlan: Frame.ethernet(ip, vlans: [42])
            case .qinq: Frame.ethernet(ip, vlans: [100, 42], outerTagType: 0x88A8)
            case .linuxCooked: Frame.linuxCooked(ip, packetType: 4)
            case .linuxCooked2: Frame.linuxCooked2(ip, packetType: 4)
            case .raw, .rawIPv4: ip
            case .nullLittle: Frame.null(ip)
            case .nullBig: Frame.null(ip, bigEndian: true)
            case .loop: Frame.loop(ip)
            case .ppp: Frame.ppp(ip)
            case .radiotap: Frame.radiotap(ip)
            case .pktap: Frame.pktap(Frame.ethernet(ip), interface: "en0")
            }
        }

        /// Bytes in front of the IP packet that crossed the link (pseudo-headers excluded):
        /// Ethernet 14 (+4 per tag), SLL 16, SLL2 20, loopback family 4, PPP 4, 802.11 QoS
        /// data 26 + LLC/SNAP 8 (radiotap's 10 are not counted), PKTAP's 108 not counted.
        var linkBytes: Int64 {
            switch self {
            case .ethernet, .pktap: 14
            case .vlan: 18
            case .qinq: 22
            case .linuxCooked: 16
            case .linuxCooked2: 20
            case .raw, .rawIPv4: 0
            case .nullLittle, .nullBig, .loop, .ppp: 4
            case .radiotap: 34
            }
        }

        var link: LinkKind {
            switch self {
            case .radiotap, .pktap: .wifi
            default: .unspecified
            }
        }
    }

    @Test(arguments: Framing.allCases)
    func findsTheIPPacketInEveryFraming(_ framing: Framing) throws {
        var writer = PcapWriter(linkType: framing.linkType)
        writer.add(at: 1_700_000_000.25, framing.frame(synV4()))
        writer.add(at: 1_700_000_000.75, framing.frame(IPPacket.v6(from: "2001:db8::2", to: "2001:db8:1::443", nextHeader: 6, IPPacket.tcp(50001, 443, seq: 1, flags: IPPacket.syn))))
        let input = try importCapture(writer.bytes)
        let isIPv4Only = framing == .rawIPv4
        #expect(input.info.packets == 2)
        #expect(input.info.format == "pcap")
        #expect(input.timeline.count == (isIPv4Only ? 1 : 2))
        #expect(input.timeline.amount.first == 40 + framing.linkBytes)
        #expect(input.timeline.code.first == NetDirection.tx.rawValue)
        #expect(input.timeline.code2.first == framing.link.rawValue)
        #expect(input.text(input.timeline.label2[0]) == connectionV4)
        #expect(input.text(input.timeline.label[0]) == serverV4)
        #expect(input.timeline.wallClockStart == 1_700_000_000_250_000_000)
        #expect(input.timeline.flows.count == (isIPv4Only ? 1 : 2))
        if isIPv4Only {
            // LINKTYPE_IPV4 announces IPv4: the IPv6 packet contradicts it.
            #expect(input.diagnostic("malformed-packet")?.count == 1)
        } else {
            #expect(input.timeline.time[1] == 500_000_000)
            #expect(input.timeline.amount[1] == 60 + framing.linkBytes)
            #expect(input.text(input.timeline.label2[1]) == "tcp [2001:db8::2]:50001 → [2001:db8:1::443]:443")
        }
    }

    @Test func loopbackFamiliesOfEveryBSDAndLinuxMeanIPv6() throws {
        var writer = PcapWriter(linkType: Frame.nullType)
        let ip = IPPacket.v6(from: "2001:db8::2", to: "2001:db8:1::443", nextHeader: 6, IPPacket.tcp(50001, 443, seq: 1, flags: IPPacket.syn))
        for family: UInt32 in [24, 28, 30, 10] { writer.add(at: 1, Frame.null(ip, ipv6Family: family)) }
        writer.add(at: 2, Frame.null(ip, ipv6Family: 7))
        let input = try importCapture(writer.bytes)
        #expect(input.timeline.amount.reduce(0, +) == 4 * 64)
        #expect(input.diagnostic("non-ip")?.count == 1)
        #expect(input.diagnostic("non-ip")?.message.contains("address family 7") == true)
    }

    @Test(arguments: [PcapWriter.ByteOrder.little, .big], [PcapWriter.Precision.microseconds, .nanoseconds])
    func readsBothByteOrdersAndBothPrecisions(order: PcapWriter.ByteOrder, precision: PcapWriter.Precision) throws {
        var writer = PcapWriter(linkType: Frame.ethernetType, precision: precision, byteOrder: order)
        writer.add(nanoseconds: 1_700_000_000_000_000_000, Frame.ethernet(synV4()))
        writer.add(nanoseconds: 1_700_000_000_123_456_789, Frame.ethernet(IPPacket.tcp(from: serverV4, 443, to: deviceV4, 50000, seq: 5000, ack: 1001, flags: IPPacket.syn | IPPacket.ack)))
        let input = try importCapture(writer.bytes)
        #expect(input.info.packets == 2)
        #expect(input.timeline.wallClockStart == 1_700_000_000_000_000_000)
        // Microsecond files keep 123456 µs; nanosecond files every nanosecond.
        #expect(input.timeline.time == [0, precision == .nanoseconds ? 123_456_789 : 123_456_000])
        #expect(input.timeline.code == [NetDirection.tx.rawValue, NetDirection.rx.rawValue])
    }

    @Test func radiotapSkipsManagementAndEncryptedFramesAndMarksWiFi() throws {
        var writer = PcapWriter(linkType: Frame.radiotapType)
        writer.add(at: 1, Frame.radiotapBeacon())
        writer.add(at: 2, Frame.radiotap(synV4(), protected: true))
        writer.add(at: 3, Frame.radiotap(synV4()))
        let input = try importCapture(writer.bytes)
        #expect(input.info.packets == 3)
        #expect(input.timeline.count == 1)
        #expect(input.timeline.code2 == [LinkKind.wifi.rawValue])
        #expect(input.diagnostic("non-ip")?.count == 2)
        #expect(input.diagnostic("non-ip")?.location == "packet 1")
    }

    @Test func pktapNamesEachPacketsInterface() throws {
        var writer = PcapWriter(linkType: Frame.pktapType)
        writer.add(at: 1, Frame.pktap(Frame.ethernet(synV4()), interface: "pdp_ip0"))
        writer.add(at: 2, Frame.pktap(Frame.ethernet(IPPacket.tcp(from: deviceV4, 50001, to: serverV4, 443, seq: 1, flags: IPPacket.syn)), interface: "en0"))
        writer.add(at: 3, Frame.pktap(IPPacket.tcp(from: deviceV4, 50002, to: serverV4, 443, seq: 1, flags: IPPacket.syn), interface: "utun2", innerType: 12))
        writer.add(at: 4, Frame.pktap([0, 1, 2, 3], interface: "x", innerType: 147))
        let input = try importCapture(writer.bytes)
        #expect(input.timeline.code2 == [LinkKind.cellular, .wifi, .unspecified].map(\.rawValue))
        #expect(input.timeline.flows.link == [.cellular, .wifi, .unspecified])
        #expect(input.diagnostic("unsupported-link-type")?.message.contains("link type 147") == true)
    }

    @Test func anUnsupportedLinkTypeIsRefusedByName() throws {
        var writer = PcapWriter(linkType: 253)
        writer.add(at: 1, [0, 1, 2, 3])
        #expect {
            _ = try importCapture(writer.bytes)
        } throws: { error in
            guard let error = error as? ImportError, case let .badData(path, _, reason) = error else { return false }
            return path.hasSuffix("capture.pcap") && reason.hasPrefix("link type 253 (NETLINK) is not supported")
        }
    }
}
