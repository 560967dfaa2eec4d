import DrainImport
import DrainTestSupport
import DrainTrace
import Testing

/// IP and transport decoding: extension headers, fragments, malformed and cut packets.
@Suite struct CaptureDecodingTests {
    func ethernetCapture(_ packets: [[UInt8]], captured: [Int?]? = nil) -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for (index, ip) in packets.enumerated() {
            writer.add(at: 1_700_000_000 + Double(index) * 0.5, Frame.ethernet(ip), captured: captured?[index])
        }
        return writer.bytes
    }

    @Test func walksIPv6ExtensionHeadersToTheTransport() throws {
        let chains: [[IPPacket.Extension]] = [
            [.options(0)],
            [.options(0), .routing, .options(60)],
            [.authentication],
            [.options(0), .fragment(offset: 0, more: false), .options(60)],
        ]
        let packets = chains.enumerated().map { index, chain in
            IPPacket.v6(
                from: "2001:db8::2", to: "2001:db8:1::\(index + 1)", nextHeader: 6,
                IPPacket.tcp(50000, 443, seq: 1, flags: IPPacket.syn), extensions: chain)
        }
        let input = try importCapture(ethernetCapture(packets))
        #expect(input.timeline.count == 4)
        #expect(input.timeline.flows.remotePort == [443, 443, 443, 443])
        #expect(input.text(input.timeline.flows.connection[1]) == "tcp [2001:db8::2]:50000 → [2001:db8:1::2]:443")
        // Frame = Ethernet 14 + IPv6 40 + extensions + TCP 20.
        #expect(input.timeline.amount == [82, 98, 98, 98].map(Int64.init))
        #expect(input.diagnostic("malformed-packet") == nil)
    }

    @Test func countsIPv4FragmentsAndGivesLaterOnesAPortlessFlow() throws {
        let data = [UInt8](repeating: 0x41, count: 2000)
        let datagram = IPPacket.udp(5000, 6000, data)
        let first = IPPacket.v4(from: deviceV4, to: serverV4, protocol: 17, Array(datagram[0..<1480]), identification: 9, moreFragments: true)
        let second = IPPacket.v4(from: deviceV4, to: serverV4, protocol: 17, Array(datagram[1480...]), identification: 9, fragmentOffset: 185)
        let input = try importCapture(ethernetCapture([first, second]))
        let flows = input.timeline.flows
        #expect(flows.count == 2)
        #expect(input.text(flows.connection[0]) == "udp 192.168.1.2:5000 → 93.184.216.34:6000")
        #expect(flows.payloadUp[0] == 1472)
        #expect(input.text(flows.connection[1]) == "udp 192.168.1.2 → 93.184.216.34")
        #expect(flows.bytesUp[1] == 14 + 20 + 528)
        #expect(input.diagnostic("ip-fragment")?.count == 2)
    }

    @Test func countsIPv6FragmentsTheSameWay() throws {
        let datagram = IPPacket.udp(5000, 6000, [UInt8](repeating: 0x42, count: 1600))
        let first = IPPacket.v6(from: "2001:db8::2", to: "2001:db8::53", nextHeader: 17, Array(datagram[0..<1232]), extensions: [.fragment(offset: 0, more: true)])
        let second = IPPacket.v6(from: "2001:db8::2", to: "2001:db8::53", nextHeader: 17, Array(datagram[1232...]), extensions: [.fragment(offset: 154, more: false)])
        let input = try importCapture(ethernetCapture([first, second]))
        #expect(input.timeline.flows.count == 2)
        #expect(input.timeline.flows.payloadUp == [1224, 0])
        #expect(input.text(input.timeline.flows.connection[1]) == "udp 2001:db8::2 → 2001:db8::53")
        #expect(input.diagnostic("ip-fragment")?.count == 2)
    }

    @Test func skipsAndCountsMalformedPacketsWithoutStopping() throws {
        var shortHeader = synV4()
        shortHeader[0] = 0x44
        var longTotal = synV4()
        longTotal[2] = 0x03
        longTotal[3] = 0xE8
        var tcpOffset = synV4()
        tcpOffset[20 + 12] = 0x30
        var udpLength = IPPacket.udp(from: deviceV4, 5000, to: serverV4, 53, [1, 2, 3, 4])
        udpLength[20 + 5] = 4
        var extensionPastEnd = IPPacket.v6(from: "2001:db8::2", to: "2001:db8::1", nextHeader: 6, IPPacket.tcp(1, 2, seq: 0), extensions: [.options(0)])
        extensionPastEnd[41] = 10
        let packets = [shortHeader, longTotal, tcpOffset, udpLength, extensionPastEnd, synV4()]
        let input = try importCapture(ethernetCapture(packets))
        #expect(input.info.packets == 6)
        #expect(input.timeline.count == 1)
        let malformed = try #require(input.diagnostic("malformed-packet"))
        #expect(malformed.count == 5)
        #expect(malformed.severity == .warning)
        #expect(malformed.location == "packet 1")
        #expect(malformed.message.contains("IPv4 header length"))
    }

    @Test func aPacketCutInsideItsTransportHeaderCountsWithoutPorts() throws {
        let packets = [synV4(), synV4(), synV4()]
        // Whole; cut after the IPv4 header (14 + 20); cut inside the IPv4 header.
        let input = try importCapture(ethernetCapture(packets, captured: [nil, 34, 24]))
        #expect(input.info.packets == 3)
        #expect(input.timeline.count == 2)
        #expect(input.timeline.flows.count == 2)
        #expect(input.text(input.timeline.flows.connection[1]) == "tcp 192.168.1.2 → 93.184.216.34")
        #expect(input.timeline.amount == [54, 54])
        let cut = try #require(input.diagnostic("cut-by-snaplen"))
        #expect(cut.count == 2)
        #expect(cut.location == "packet 2")
    }

    @Test func zeroIPLengthOfSegmentationOffloadTakesTheFrameLength() throws {
        var segment = IPPacket.tcp(from: deviceV4, 50000, to: serverV4, 443, seq: 1, flags: IPPacket.ack, [UInt8](repeating: 7, count: 3000))
        segment[2] = 0
        segment[3] = 0
        let input = try importCapture(ethernetCapture([synV4(), segment]))
        #expect(input.timeline.flows.payloadUp == [3000])
        #expect(input.timeline.flows.dataSegments == [1])
    }

    @Test func ethernetPaddingIsNotPayload() throws {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        writer.add(at: 1, Frame.ethernet(synV4()) + [0, 0, 0, 0, 0, 0])
        let input = try importCapture(writer.bytes)
        #expect(input.timeline.amount == [60])
        #expect(input.timeline.flows.payloadUp == [0])
        #expect(input.timeline.flows.setupBytes == [60])
    }

    @Test func nonIPFramesAreCountedWithTheirBytes() throws {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        writer.add(at: 1, Frame.ethernet([UInt8](repeating: 0, count: 28), etherType: 0x0806))
        writer.add(at: 2, Frame.ethernet(synV4()))
        writer.add(at: 3, Frame.ethernet([UInt8](repeating: 0, count: 46), etherType: 0x88CC))
        let input = try importCapture(writer.bytes)
        let nonIP = try #require(input.diagnostic("non-ip"))
        #expect(nonIP.count == 2)
        #expect(nonIP.message.contains("(102 bytes)"))
        #expect(nonIP.message.contains("ethertype 0x0806"))
        #expect(input.timeline.count == 1)
    }
}
