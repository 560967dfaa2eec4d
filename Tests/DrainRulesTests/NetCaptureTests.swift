import DrainImport
import DrainModel
import DrainReport
import DrainRules
import DrainTestSupport
import DrainTrace
import Testing

/// The network rules on real captures: pcap files written in memory, read by the capture
/// importer, priced with `iphone-lte` and judged by the engine, so the rules are checked
/// against the flow columns the importer actually produces.
@Suite struct NetCaptureTests {
    static let device = "192.168.1.2"
    static let server = "93.184.216.34"
    static let epoch = 1_700_000_000.0

    /// Packets of a capture, written in time order.
    struct Capture {
        var packets: [(time: Double, ip: [UInt8])] = []

        mutating func add(_ time: Double, _ ip: [UInt8]) { packets.append((time, ip)) }

        func evaluation(model: DeviceModel) throws -> (RuleEvaluation, Timeline) {
            var writer = PcapWriter(linkType: Frame.ethernetType, precision: .nanoseconds)
            for packet in packets.sorted(by: { $0.time < $1.time }) {
                writer.add(nanoseconds: nanoseconds(NetCaptureTests.epoch + packet.time), Frame.ethernet(packet.ip))
            }
            let options = CaptureOptions(deviceAddress: NetCaptureTests.device, link: .cellular)
            let input = try withTemporaryFile(writer.bytes) { path in try CaptureImporter.read(path: path, inputIndex: 0, options: options) }
            let priced = Pricer(model: model).price(input.timeline)
            return (RuleEngine(model: model).evaluate(priced), input.timeline)
        }
    }

    /// One TCP connection between the device's `port` and the server's `serverPort`, keeping
    /// both sides' sequence numbers.
    struct Connection {
        var port: UInt16
        var serverPort: UInt16 = 443
        var deviceSequence: UInt32 = 1_000
        var serverSequence: UInt32 = 9_000

        func open(at t: Double, into capture: inout Capture) {
            capture.add(t, IPPacket.tcp(from: NetCaptureTests.device, port, to: NetCaptureTests.server, serverPort, seq: deviceSequence - 1, flags: IPPacket.syn))
            capture.add(t + 0.04, IPPacket.tcp(from: NetCaptureTests.server, serverPort, to: NetCaptureTests.device, port, seq: serverSequence - 1, flags: IPPacket.syn | IPPacket.ack))
            capture.add(t + 0.05, IPPacket.tcp(from: NetCaptureTests.device, port, to: NetCaptureTests.server, serverPort, seq: deviceSequence, flags: IPPacket.ack))
        }

        mutating func send(_ payload: [UInt8], at t: Double, into capture: inout Capture) {
            capture.add(t, IPPacket.tcp(from: NetCaptureTests.device, port, to: NetCaptureTests.server, serverPort, seq: deviceSequence, flags: IPPacket.psh | IPPacket.ack, payload))
            deviceSequence &+= UInt32(payload.count)
        }

        mutating func receive(_ payload: [UInt8], at t: Double, into capture: inout Capture, again: Bool = false) {
            let sequence = again ? serverSequence &- UInt32(payload.count) : serverSequence
            capture.add(t, IPPacket.tcp(from: NetCaptureTests.server, serverPort, to: NetCaptureTests.device, port, seq: sequence, flags: IPPacket.psh | IPPacket.ack, payload))
            if !again { serverSequence &+= UInt32(payload.count) }
        }

        func finish(at t: Double, into capture: inout Capture) {
            capture.add(t, IPPacket.tcp(from: NetCaptureTests.device, port, to: NetCaptureTests.server, serverPort, seq: deviceSequence, flags: IPPacket.fin | IPPacket.ack))
        }
    }

    static func bytes(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x41, count: count) }

    @Test func aLateFINIsFoundThroughItsConnectionAndPricedAsAWakeUp() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var capture = Capture()
        var connection = Connection(port: 50_000)
        connection.open(at: 0, into: &capture)
        connection.send(Self.bytes(300), at: 0.1, into: &capture)
        connection.receive(Self.bytes(2_000), at: 0.2, into: &capture)
        connection.finish(at: 30.2, into: &capture)
        let (evaluation, _) = try capture.evaluation(model: model)
        let finding = try #require(evaluation.findings(of: "NET-LATE-CLOSE").first)
        #expect(finding.texts("endpoint") == [Self.server])
        #expect(nearly(finding.number("longest delay"), 30, tolerance: 1e-6))
        // The FIN finds the LTE radio idle: a promotion and a whole tail.
        #expect(nearly(finding.energyJ, lte.promotion + lte.tail))
        #expect(finding.number("closes that woke the radio") == 1)
    }

    @Test func smallExchangesOnOneConnectionAreChatty() throws {
        var capture = Capture()
        var connection = Connection(port: 50_000)
        connection.open(at: 0, into: &capture)
        for call in 0..<12 {
            connection.send(Self.bytes(200), at: 1 + Double(call) * 2, into: &capture)
            connection.receive(Self.bytes(500), at: 1.1 + Double(call) * 2, into: &capture)
        }
        connection.finish(at: 25, into: &capture)
        let (evaluation, _) = try capture.evaluation(model: try builtinModel("iphone-lte"))
        let finding = try #require(evaluation.findings(of: "NET-CHATTY").first)
        #expect(finding.number("small exchanges") == 12)
        #expect(nearly(finding.number("exchange span"), 22.1, tolerance: 1e-6))
        #expect(nearly(finding.number("time waiting for responses"), 1.2, tolerance: 1e-6))
        #expect(finding.number("mean payload per exchange") == 700)
    }

    @Test func aConnectionPerRequestIsFound() throws {
        var capture = Capture()
        for index in 0..<4 {
            let t = Double(index) * 10
            var connection = Connection(port: 50_000 + UInt16(index))
            connection.open(at: t, into: &capture)
            connection.send(Self.bytes(300), at: t + 0.1, into: &capture)
            connection.receive(Self.bytes(2_000), at: t + 0.2, into: &capture)
            connection.finish(at: t + 0.3, into: &capture)
        }
        let (evaluation, _) = try capture.evaluation(model: try builtinModel("iphone-lte"))
        let finding = try #require(evaluation.findings(of: "NET-CONN-REUSE").first)
        #expect(finding.number("connections") == 4)
        // SYN, SYN+ACK and ACK: 54 frame bytes each.
        #expect(finding.number("handshake bytes") == Double(4 * 3 * 54))
        #expect(nearly(finding.number("handshake time"), 4 * 0.1, tolerance: 1e-6))
    }

    @Test func repeatedSegmentsAreRetransmissions() throws {
        var capture = Capture()
        var connection = Connection(port: 50_000)
        connection.open(at: 0, into: &capture)
        for segment in 0..<25 {
            let t = 0.1 + Double(segment) * 0.05
            connection.receive(Self.bytes(1_400), at: t, into: &capture)
            if segment.isMultiple(of: 8) { connection.receive(Self.bytes(1_400), at: t + 0.02, into: &capture, again: true) }
        }
        let (evaluation, _) = try capture.evaluation(model: try builtinModel("iphone-lte"))
        let finding = try #require(evaluation.findings(of: "NET-RETRANSMIT").first)
        // Segments 0, 8, 16 and 24 were sent twice: 4 of 29 data segments.
        #expect(finding.number("data segments") == 29)
        #expect(finding.number("retransmits") == 4)
        #expect(finding.severity == .warning)
    }

    @Test func anUncompressedJSONBodyIsReadFromTheHTTPHeads() throws {
        var capture = Capture()
        var connection = Connection(port: 50_000, serverPort: 80)
        connection.open(at: 0, into: &capture)
        connection.send(HTTP.request("GET", "/v1/items?page=2", headers: [("Host", "api.example.com")]), at: 0.1, into: &capture)
        let body = Self.bytes(3_000)
        let head = HTTP.response(200, headers: [("Content-Type", "application/json"), ("Content-Length", "3000")])
        connection.receive(head + Array(body[0..<1_000]), at: 0.2, into: &capture)
        connection.receive(Array(body[1_000...]), at: 0.21, into: &capture)
        let (evaluation, _) = try capture.evaluation(model: try builtinModel("iphone-lte"))
        let finding = try #require(evaluation.findings(of: "NET-UNCOMPRESSED").first)
        #expect(finding.texts("endpoint") == ["api.example.com"])
        #expect(finding.texts("path") == ["/v1/items"])
        #expect(finding.number("bytes") == 3_000)
        #expect(nearly(finding.number("estimated compressed"), 900))
    }

    @Test func aPeriodicPollOverUDPIsFoundWithItsEndpointAndCost() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var capture = Capture()
        for poll in 0..<5 {
            capture.add(Double(poll) * 30, IPPacket.udp(from: Self.device, 40_000, to: Self.server, 5_000, Self.bytes(100)))
        }
        let (evaluation, timeline) = try capture.evaluation(model: model)
        let finding = try #require(evaluation.findings(of: "NET-PERIODIC").first)
        #expect(finding.texts("endpoint") == [Self.server])
        #expect(nearly(finding.number("period"), 30, tolerance: 1e-6))
        // Each poll finds the radio idle: a promotion and a whole tail.
        #expect(nearly(finding.energyJ, 5 * (lte.promotion + lte.tail)))
        #expect(finding.number("wake-ups") == 5)
        #expect(!timeline.flows.isEmpty)
        // The same polls are five small bursts whose tails are most of the radio energy.
        let small = try #require(evaluation.findings(of: "NET-SMALL-BURSTS").first)
        #expect(nearly(small.number("saving if batched"), 4 * (lte.promotion + lte.tail)))
    }
}
