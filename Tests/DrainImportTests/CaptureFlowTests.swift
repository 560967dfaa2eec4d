import DrainImport
import DrainTestSupport
import DrainTrace
import Testing

/// Flows, coalescing windows, retransmissions, closes, exchanges, device side and link kinds.
@Suite struct CaptureFlowTests {
    /// Packets at seconds since the start (1.7e9 s since the epoch), framed in Ethernet.
    func capture(_ packets: [(Double, [UInt8])]) -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType, precision: .nanoseconds)
        for (time, ip) in packets { writer.add(nanoseconds: 1_700_000_000_000_000_000 + nanoseconds(time), Frame.ethernet(ip)) }
        return writer.bytes
    }

    func up(_ seq: UInt32, _ bytes: Int, flags: UInt8 = IPPacket.ack | IPPacket.psh, port: UInt16 = 50000) -> [UInt8] {
        IPPacket.tcp(from: deviceV4, port, to: serverV4, 443, seq: seq, flags: flags, [UInt8](repeating: 0x55, count: bytes))
    }

    func down(_ seq: UInt32, _ bytes: Int, flags: UInt8 = IPPacket.ack | IPPacket.psh, port: UInt16 = 50000) -> [UInt8] {
        IPPacket.tcp(from: serverV4, 443, to: deviceV4, port, seq: seq, flags: flags, [UInt8](repeating: 0x66, count: bytes))
    }

    /// Milliseconds as seconds.
    func ms(_ value: Double) -> Double { value / 1000 }

    @Test func packetsCloserThanTheWindowBecomeOneEventPerDirection() throws {
        // Device data every 2 ms, then a 10 ms gap (not closer than the window) and a 12 ms gap;
        // the server's ACKs in between form their own window.
        var packets: [(Double, [UInt8])] = []
        for index in 0..<5 { packets.append((ms(Double(2 * index)), up(1 + UInt32(100 * index), 100))) }
        packets.append((ms(1), down(9000, 0, flags: IPPacket.ack)))
        packets.append((ms(3), down(9000, 0, flags: IPPacket.ack)))
        packets.append((ms(18), up(501, 100)))
        packets.append((ms(30), up(601, 100)))
        packets.sort { $0.0 < $1.0 }
        let input = try importCapture(capture(packets))
        let timeline = input.timeline
        // Frames: data 14 + 40 + 100 = 154 bytes, ACKs 54.
        #expect(timeline.time == [0, 1_000_000, 18_000_000, 30_000_000])
        #expect(Array(timeline.duration) == [8_000_000, 2_000_000, 0, 0])
        #expect(Array(timeline.amount) == [5 * 154, 2 * 54, 154, 154])
        #expect(timeline.code == [NetDirection.tx, .rx, .tx, .tx].map(\.rawValue))
        #expect(timeline.amount.reduce(0, +) == timeline.flows.bytesUp[0] + timeline.flows.bytesDown[0])
        #expect(timeline.end == 30_000_000)

        let perPacket = try importCapture(capture(packets), options: CaptureOptions(coalescing: 0))
        #expect(perPacket.timeline.count == 9)
        let wide = try importCapture(capture(packets), options: CaptureOptions(coalescing: 20_000_000))
        #expect(wide.timeline.count == 2)
        #expect(wide.timeline.duration == [30_000_000, 2_000_000])
    }

    @Test func retransmittedSegmentsAreCountedButKeepAlivesAreNot() throws {
        let input = try importCapture(
            capture([
                (0.0, up(1, 100)), (0.1, up(101, 100)), (0.2, up(101, 100)), (0.3, up(201, 100)),
                (0.4, down(5000, 200)), (0.5, down(5000, 200)),
                (10.0, up(300, 1)),  // keep-alive: the byte before the next expected (301)
                (10.1, up(1, 100)),
            ]))
        let flows = input.timeline.flows
        #expect(flows.retransmits == [3])
        #expect(flows.dataSegments == [8])
        #expect(flows.payloadUp == [501])
        #expect(flows.payloadDown == [400])
        #expect(flows.lastDataTime == [400_000_000])
    }

    @Test func finAndRstTimesSayWhoClosed() throws {
        let input = try importCapture(
            capture([
                (0.0, up(1, 0, flags: IPPacket.syn)), (0.05, down(9000, 0, flags: IPPacket.syn | IPPacket.ack)),
                (0.1, up(2, 300)), (0.2, down(9001, 800)),
                (20.0, up(302, 0, flags: IPPacket.fin | IPPacket.ack)), (20.05, down(9801, 0, flags: IPPacket.rst)),
            ]))
        let flows = input.timeline.flows
        #expect(flows.finTime == [20_000_000_000])
        #expect(flows.finBy == [.device])
        #expect(flows.rstTime == [20_050_000_000])
        #expect(flows.rstBy == [.remote])
        #expect(flows.lastDataTime == [200_000_000])
        #expect(flows.firstDataTime == [100_000_000])
        #expect(flows.flags[0].isSuperset(of: [.syn, .synAck, .deviceOpened]))
        #expect(flows.setupBytes == [108])
        #expect(flows.packetsUp == [3])
        #expect(flows.packetsDown == [3])
    }

    @Test func requestResponseExchangesAreCountedFromTheDeviceSide() throws {
        let input = try importCapture(
            capture([
                (0.0, up(1, 300)), (0.1, down(1, 500)), (0.12, down(501, 600)),
                (0.5, up(301, 200)), (0.55, down(1101, 100)),
                (1.0, up(501, 50)), (1.08, down(1201, 50)),
            ]))
        let flows = input.timeline.flows
        #expect(flows.exchanges == [3])
        // The first response (1100 bytes) is not small; the other two exchanges are.
        #expect(flows.smallExchanges == [2])
        #expect(flows.exchangePayload == [300 + 1100 + 200 + 100 + 50 + 50])
        // Waits: 0.1 − 0, 0.55 − 0.5, 1.08 − 1.0 seconds.
        #expect(flows.exchangeWait == [100_000_000 + 50_000_000 + 80_000_000])
        #expect(flows.firstExchangeTime == [0])
        #expect(flows.lastExchangeTime == [1_080_000_000])
    }

    @Test func aSynAfterACloseStartsANewFlowOnTheSamePorts() throws {
        let input = try importCapture(
            capture([
                (0.0, up(1, 0, flags: IPPacket.syn)), (1.0, up(2, 0, flags: IPPacket.fin | IPPacket.ack)),
                (5.0, up(7000, 0, flags: IPPacket.syn)), (5.1, up(7001, 10)),
            ]))
        let flows = input.timeline.flows
        #expect(flows.count == 2)
        #expect(flows.connection.map(input.text) == [connectionV4, connectionV4 + " #2"])
        #expect(flows.firstTime == [0, 5_000_000_000])
        #expect(flows.payloadUp == [0, 10])
    }

    /// The same, with another connection's packets between, so each packet's flow is found
    /// through the flow key table rather than the one-entry cache of the last flow.
    @Test func aReusedFiveTupleFoundThroughTheTableGoesToItsLatestFlow() throws {
        let input = try importCapture(
            capture([
                (0.0, up(1, 0, flags: IPPacket.syn)), (0.5, up(1, 0, flags: IPPacket.syn, port: 50001)),
                (1.0, up(2, 0, flags: IPPacket.fin | IPPacket.ack)), (1.5, up(2, 5, port: 50001)),
                (5.0, up(7000, 0, flags: IPPacket.syn)), (5.05, up(7, 20, port: 50001)),
                (5.1, up(7001, 10)), (5.2, up(27, 30, port: 50001)), (5.3, up(7011, 40)),
            ]))
        let flows = input.timeline.flows
        #expect(flows.count == 3)
        #expect(flows.firstTime == [0, 500_000_000, 5_000_000_000])
        // Flow 2 carries 5, 20 and 30 bytes; flow 3, 10 and 40.
        #expect(flows.payloadUp == [0, 55, 50])
    }

    @Test func theDeviceIsTheBusiestPrivateAddressUnlessGiven() throws {
        let other = "192.168.1.3"
        var packets: [(Double, [UInt8])] = []
        for index in 0..<4 { packets.append((Double(index), up(1 + UInt32(index), 10, port: 50000 + UInt16(index)))) }
        packets.append((5, IPPacket.tcp(from: other, 40000, to: deviceV4, 8080, seq: 1, flags: IPPacket.syn)))
        packets.append((6, IPPacket.tcp(from: other, 40001, to: "198.51.100.5", 443, seq: 1, flags: IPPacket.syn)))
        let bytes = capture(packets)

        let found = try importCapture(bytes)
        #expect(found.diagnostic("device-address")?.message.contains("the device is 192.168.1.2 (the private IPv4 address in the most packets)") == true)
        // The LAN flow: 192.168.1.2 is the device, so 192.168.1.3's SYN is received.
        #expect(found.timeline.code[4] == NetDirection.rx.rawValue)
        #expect(found.text(found.timeline.label2[4]) == "tcp 192.168.1.2:8080 → 192.168.1.3:40000")
        // 192.168.1.3 to a public server: the private side sends.
        #expect(found.timeline.code[5] == NetDirection.tx.rawValue)

        let given = try importCapture(bytes, options: CaptureOptions(deviceAddress: other))
        #expect(given.timeline.code[4] == NetDirection.tx.rawValue)
        #expect(given.text(given.timeline.label2[4]) == "tcp 192.168.1.3:40000 → 192.168.1.2:8080")
        #expect(given.diagnostic("device-address")?.message.contains("192.168.1.3 (given by --device-ip)") == true)

        let absent = try importCapture(bytes, options: CaptureOptions(deviceAddress: "10.9.9.9"))
        #expect(absent.diagnostic("device-address-not-seen")?.severity == .warning)

        #expect(throws: ImportError.self) { try importCapture(bytes, options: CaptureOptions(deviceAddress: "not-an-ip")) }
        #expect(CaptureOptions.isAddress("2001:db8::1"))
        #expect(!CaptureOptions.isAddress("2001:db8::1::2"))
    }

    @Test func withoutPrivateAddressesTheBusiestAddressIsTheDevice() throws {
        let server = "198.51.100.10"
        var packets: [(Double, [UInt8])] = []
        for (index, client) in ["203.0.113.5", "203.0.113.6", "203.0.113.7"].enumerated() {
            packets.append((Double(index), IPPacket.tcp(from: client, 51000, to: server, 443, seq: 1, flags: IPPacket.syn)))
            packets.append((Double(index) + 0.5, IPPacket.tcp(from: server, 443, to: client, 51000, seq: 1, flags: IPPacket.syn | IPPacket.ack)))
        }
        let input = try importCapture(capture(packets))
        #expect(input.timeline.code == [NetDirection.rx, .tx, .rx, .tx, .rx, .tx].map(\.rawValue))
        #expect(input.timeline.flows.flags.allSatisfy { !$0.contains(.deviceOpened) })
        #expect(input.timeline.flows.endpoint.map(input.text) == ["203.0.113.5", "203.0.113.6", "203.0.113.7"])
    }

    @Test func ipv6DeviceAddressesAreTheBusiestInTCPAndUDP() throws {
        let device = "2001:db8:aa::2"
        var packets: [(Double, [UInt8])] = []
        for index in 0..<3 {
            packets.append((Double(index), IPPacket.tcp(from: device, 50000, to: "2001:db8:bb::\(index + 1)", 443, seq: 1, flags: IPPacket.syn)))
            packets.append((Double(index) + 0.5, IPPacket.tcp(from: "2001:db8:bb::\(index + 1)", 443, to: device, 50000, seq: 1, flags: IPPacket.syn | IPPacket.ack)))
        }
        let input = try importCapture(capture(packets))
        #expect(input.timeline.code == [NetDirection.tx, .rx, .tx, .rx, .tx, .rx].map(\.rawValue))
        #expect(input.diagnostic("device-address")?.message.contains("2001:db8:aa::2") == true)
    }

    func pcapng(_ names: [String?], resolution: UInt8 = 9) -> [UInt8] {
        var writer = PcapngWriter()
        for name in names { writer.addInterface(linkType: 1, name: name, resolution: resolution) }
        writer.add(interface: 0, nanoseconds: 1_700_000_000_000_000_001, Frame.ethernet(synV4()))
        writer.add(interface: 0, nanoseconds: 1_700_000_000_500_000_002, Frame.ethernet(IPPacket.tcp(from: "127.0.0.1", 5000, to: "127.0.0.1", 6000, seq: 1, flags: IPPacket.syn)))
        return writer.bytes
    }

    @Test(arguments: [("pdp_ip0", LinkKind.cellular), ("rmnet_data0", .cellular), ("ccmni1", .cellular), ("wwan0", .cellular), ("en0", .wifi), ("wlan0", .wifi), ("wlp2s0", .wifi), ("eth0", .unspecified), ("enp3s0", .unspecified)])
    func pcapngInterfaceNamesGiveTheLinkKind(name: String, link: LinkKind) throws {
        let input = try importCapture(pcapng([name]), name: "capture.pcapng")
        #expect(input.info.format == "pcapng")
        #expect(input.timeline.code2 == [link.rawValue, LinkKind.loopback.rawValue])
        #expect(input.timeline.flows.link == [link, .loopback])
        #expect(input.timeline.time == [0, 500_000_001])
    }

    @Test func linkOverridesInterfacesButNotLoopback() throws {
        let input = try importCapture(pcapng(["en0"]), options: CaptureOptions(link: .cellular), name: "capture.pcapng")
        #expect(input.timeline.flows.link == [.cellular, .loopback])
    }

    @Test func interfacesOfDifferentKindsLeaveTheLinkToTheModelAndSaySo() throws {
        let input = try importCapture(pcapng(["en0", "pdp_ip0"]), name: "capture.pcapng")
        #expect(input.timeline.flows.link == [.unspecified, .loopback])
        let warning = try #require(input.diagnostic("mixed-interfaces"))
        #expect(warning.message.contains("\"en0\" (wifi), \"pdp_ip0\" (cellular)"))
    }
}
