import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// GUIDANCE.md, *Local traffic*: multicast, broadcast and link-local traffic never crosses a
/// cellular link, so it is never put on (or priced by) a cellular radio.
@Suite struct LocalTrafficTests {
    func capture(_ packets: [[UInt8]]) -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for (index, ip) in packets.enumerated() { writer.add(at: 1_700_000_000 + Double(index) * 0.5, Frame.ethernet(ip)) }
        return writer.bytes
    }

    /// One packet per address family and protocol GUIDANCE.md lists, and one unicast packet.
    var packets: [[UInt8]] {
        [
            IPPacket.udp(from: deviceV4, 50000, to: "239.255.255.250", 1900, Array("M-SEARCH * HTTP/1.1\r\n".utf8)),  // SSDP
            IPPacket.udp(from: deviceV4, 5353, to: "224.0.0.251", 5353, [0, 0, 0, 0]),  // mDNS
            IPPacket.udp(from: deviceV4, 50001, to: "224.0.0.252", 5355, [0, 1]),  // LLMNR
            IPPacket.udp(from: "0.0.0.0", 68, to: "255.255.255.255", 67, [1, 1, 6, 0]),  // DHCP discover
            IPPacket.udp(from: "169.254.7.9", 50002, to: "169.254.1.1", 80, [7]),  // IPv4 link-local
            IPPacket.v6(from: "fe80::1", to: "ff02::fb", nextHeader: 17, IPPacket.udp(5353, 5353, [0, 0])),  // mDNS over IPv6
            IPPacket.v6(from: "fe80::1", to: "ff02::2", nextHeader: 58, [133, 0, 0, 0, 0, 0, 0, 0]),  // router solicitation
            IPPacket.udp(from: deviceV4, 50003, to: serverV4, 443, [1, 2, 3]),  // unicast: stays on the capture's link
        ]
    }

    @Test(arguments: [nil, LinkKind.cellular])
    func localTrafficGoesOnWiFiWhateverTheCellularLink(link: LinkKind?) throws {
        let input = try importCapture(capture(packets), options: CaptureOptions(link: link))
        let timeline = input.timeline
        let hosts = (0..<timeline.count).map { timeline.strings[timeline.label[$0]] }
        // Between two link-local addresses the device side is not known; either names the flow.
        #expect(Set(hosts) == ["239.255.255.250", "224.0.0.251", "224.0.0.252", "255.255.255.255", "169.254.7.9", "ff02::fb", "ff02::2", serverV4])
        for row in 0..<timeline.count {
            let expected: LinkKind = hosts[row] == serverV4 ? (link ?? .unspecified) : .wifi
            #expect(LinkKind(rawValue: timeline.code2[row]) == expected, "\(hosts[row])")
        }
    }

    @Test func aWiFiOrEthernetLinkIsKept() throws {
        let input = try importCapture(capture(packets), options: CaptureOptions(link: .ethernet))
        #expect(input.timeline.code2.allSatisfy { $0 == LinkKind.ethernet.rawValue })
    }

    @Test(arguments: [
        ("239.255.255.250", true), ("224.0.0.251", true), ("255.255.255.255", true), ("169.254.1.1", true), ("ff02::fb", true),
        ("fe80::1c2d:3e4f", true), ("192.168.1.1", false), ("93.184.216.34", false), ("2001:db8::1", false), ("api.example.com", false),
    ])
    func localAddressesAreRecognised(address: String, local: Bool) {
        #expect(CaptureOptions.isLocalAddress(address) == local)
    }

    /// Real captures: no multicast, broadcast or link-local endpoint is on a cellular radio.
    @Test(arguments: Corpus.files(in: "pcap"))
    func noCorpusCapturePutsLocalTrafficOnACellularRadio(file: URL) throws {
        guard let input = try? CaptureImporter.read(path: file.path, inputIndex: 0, options: CaptureOptions(link: .cellular)) else { return }
        let timeline = input.timeline
        for row in 0..<timeline.count where timeline.kind[row] == .net && timeline.label[row] != 0 {
            let host = timeline.strings[timeline.label[row]]
            guard CaptureOptions.isLocalAddress(host) else { continue }
            #expect(timeline.code2[row] != LinkKind.cellular.rawValue, "\(file.lastPathComponent): \(host)")
        }
    }

    /// A subnet broadcast (192.168.1.255 on a /24) is an ordinary address to IP; the frame's
    /// link-layer destination says it never left the local link.
    @Test func aSubnetBroadcastIsLocalByItsLinkLayerDestination() throws {
        let broadcast = IPPacket.udp(from: deviceV4, 137, to: "192.168.1.255", 137, [0, 1, 2])  // NetBIOS name service
        let unicastTo255 = IPPacket.udp(from: deviceV4, 50000, to: "10.1.0.255", 443, [3])  // a host of a /16
        var writer = PcapWriter(linkType: Frame.ethernetType)
        writer.add(at: 1_700_000_000, Frame.ethernet(broadcast, destination: Frame.broadcastMAC))
        writer.add(at: 1_700_000_001, Frame.ethernet(unicastTo255))
        writer.add(at: 1_700_000_002, Frame.ethernet(IPPacket.udp(from: deviceV4, 5353, to: "10.1.0.9", 5353, [4]), destination: [0x01, 0x00, 0x5E, 0, 0, 0xFB]))
        let input = try importCapture(writer.bytes, options: CaptureOptions(link: .cellular))
        let timeline = input.timeline
        var links: [String: LinkKind] = [:]
        for row in 0..<timeline.count { links[timeline.strings[timeline.label[row]]] = LinkKind(rawValue: timeline.code2[row]) }
        #expect(links == ["192.168.1.255": .wifi, "10.1.0.255": .cellular, "10.1.0.9": .wifi])
        let flows = timeline.flows
        let local = (0..<flows.count).filter { flows[$0].flags.contains(.local) }.map { timeline.strings[flows[$0].endpoint] }
        #expect(Set(local) == ["192.168.1.255", "10.1.0.9"])
    }

    /// Linux cooked captures name broadcast (1) and multicast (2) frames from other hosts.
    @Test func linuxCookedBroadcastAndMulticastPacketTypesAreLocal() throws {
        for (linkType, frame) in [
            (Frame.linuxCookedType, { (ip: [UInt8], type: UInt8) in Frame.linuxCooked(ip, packetType: UInt16(type)) }),
            (Frame.linuxCooked2Type, { (ip: [UInt8], type: UInt8) in Frame.linuxCooked2(ip, packetType: type) }),
        ] {
            var writer = PcapWriter(linkType: linkType)
            writer.add(at: 1_700_000_000, frame(IPPacket.udp(from: "192.168.1.1", 138, to: "192.168.1.255", 138, [1]), 1))
            writer.add(at: 1_700_000_001, frame(IPPacket.udp(from: "192.168.1.7", 5000, to: "192.168.1.20", 5000, [2]), 2))
            writer.add(at: 1_700_000_002, frame(IPPacket.udp(from: serverV4, 443, to: deviceV4, 50000, [3]), 0))
            let timeline = try importCapture(writer.bytes, options: CaptureOptions(link: .cellular)).timeline
            let cellular = (0..<timeline.count).filter { timeline.code2[$0] == LinkKind.cellular.rawValue }
            #expect(cellular.map { timeline.strings[timeline.label[$0]] } == [serverV4], "link type \(linkType)")
        }
    }
}
