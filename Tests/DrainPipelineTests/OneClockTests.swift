import DrainPipeline
import DrainTestSupport
import Foundation
import Testing

/// A capture and a trace of the same run share one timeline, lined up by wall clock.
@Suite struct OneClockTests {
    @Test func captureAndTraceLineUpByWallClock() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 2026-11-20T09:00:00Z = 1_795_165_200 s since the epoch. The capture starts 2 s after
        // the trace: one request at 09:00:02 and its response 50 ms later.
        let traceStart = 1_795_165_200.0
        var capture = PcapWriter(linkType: Frame.ethernetType, precision: .nanoseconds)
        capture.add(at: traceStart + 2, Frame.ethernet(IPPacket.tcp(from: "192.168.1.20", 50_000, to: "93.184.216.34", 443, seq: 1, flags: IPPacket.psh | IPPacket.ack, [UInt8](repeating: 0x41, count: 300))))
        capture.add(at: traceStart + 2.05, Frame.ethernet(IPPacket.tcp(from: "93.184.216.34", 443, to: "192.168.1.20", 50_000, seq: 1, flags: IPPacket.psh | IPPacket.ack, [UInt8](repeating: 0x42, count: 900))))
        let pcap = directory.appendingPathComponent("phone.pcap")
        try capture.write(to: pcap)
        let trace = try writeTrace(
            [
                #"{"drain_trace":1,"start":"2026-11-20T09:00:00Z"}"#,
                #"{"t":0,"type":"lifecycle","state":"active"}"#,
                #"{"t":1,"type":"lifecycle","state":"background"}"#,
                #"{"t":3,"type":"mark","name":"end"}"#,
            ], named: "app.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [pcap.path, trace.path], binSeconds: 1))
        #expect(report.inputs.map(\.format) == ["pcap", "drain-trace"])
        #expect(report.inputs.map(\.packets) == [2, nil])
        // Time zero is the trace's start, the earlier of the two; the capture sits 2 s later.
        #expect(report.inputs.map(\.offsetS) == [2, 0])
        let radio = try #require(report.timeline.categories.firstIndex(of: "radio"))
        let firstRadioBin = report.timeline.energyJ.firstIndex { $0[radio] > 0 }
        #expect(firstRadioBin == 2)
        #expect(report.timeline.lifecycle.map(\.timeS) == [0, 1])
        #expect(report.endpoints.map(\.endpoint) == ["93.184.216.34"])
        #expect(report.endpoints.first?.bytesUp == Int64(300 + 54))
        #expect(report.endpoints.first?.bytesDown == Int64(900 + 54))
        // Request and response, 50 ms apart, are one burst carrying all the radio energy.
        #expect(report.radio.burstCount == 1)
        let burst = try #require(report.radio.bursts.first)
        #expect(burst.link == "cellular" && burst.endpoint == "93.184.216.34" && burst.endpoints == 1)
        #expect(burst.bytesUp == Int64(354) && burst.bytesDown == Int64(954))
        // Packet times pass through a Double of epoch seconds: good to a microsecond.
        #expect(abs(burst.startS - 2) < 1e-6 && abs(burst.endS - 2.05) < 1e-6)
        #expect(abs(burst.energyJ - report.energy.byCategory["radio"]!) < 1e-5 * burst.energyJ)
        #expect(report.endpoints.first?.bursts == 1)
    }

    /// NET-BACKGROUND judges a capture's packets against the lifecycle of a trace of the
    /// same run: the two only meet on the shared wall clock.
    @Test func captureTrafficInTheTracesBackgroundIsFlagged() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let traceStart = 1_795_165_200.0  // 2026-11-20T09:00:00Z
        let upload = [UInt8](repeating: 0x41, count: 1_000), reply = [UInt8](repeating: 0x42, count: 200)
        var capture = PcapWriter(linkType: Frame.ethernetType, precision: .nanoseconds)
        // Within the 5 s grace after entering the background at 10 s: not flagged.
        capture.add(at: traceStart + 12, Frame.ethernet(IPPacket.tcp(from: "192.168.1.20", 50_000, to: "93.184.216.34", 443, seq: 1, flags: IPPacket.psh | IPPacket.ack, upload)))
        // 20 s into the background: flagged, one upload and its reply.
        capture.add(at: traceStart + 30, Frame.ethernet(IPPacket.tcp(from: "192.168.1.20", 50_001, to: "198.51.100.7", 443, seq: 1, flags: IPPacket.psh | IPPacket.ack, upload)))
        capture.add(at: traceStart + 30.5, Frame.ethernet(IPPacket.tcp(from: "198.51.100.7", 443, to: "192.168.1.20", 50_001, seq: 1, flags: IPPacket.psh | IPPacket.ack, reply)))
        let pcap = directory.appendingPathComponent("phone.pcap")
        try capture.write(to: pcap)
        let trace = try writeTrace(
            [
                #"{"drain_trace":1,"start":"2026-11-20T09:00:00Z"}"#,
                #"{"t":0,"type":"lifecycle","state":"active"}"#,
                #"{"t":10,"type":"lifecycle","state":"background"}"#,
                #"{"t":20,"type":"lifecycle","state":"suspended"}"#,
                #"{"t":60,"type":"mark","name":"end"}"#,
            ], named: "app.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path, pcap.path], binSeconds: 1))
        let finding = try #require(report.findings.first { $0.rule == "NET-BACKGROUND" })
        func number(_ name: String) -> Double? { finding.evidence.first { $0.name == name }?.value }
        func text(_ name: String) -> String? { finding.evidence.first { $0.name == name }?.text }
        #expect(finding.severity == .warning)
        // Frame bytes: 14 Ethernet + 20 IPv4 + 20 TCP = 54 B of headers on each packet.
        #expect(number("bytes sent") == Double(1_000 + 54) && number("bytes received") == Double(200 + 54))
        #expect(number("transfers") == 2)
        #expect(number("first transfer") == 30 && number("last transfer end") == 30.5)
        #expect(text("busiest host") == "198.51.100.7")
        #expect(text("states") == "suspended")
        // Both packets fall in the second radio burst; its energy is the late transfers'.
        let burst = try #require(report.radio.bursts.last)
        #expect(report.radio.bursts.count == 2 && burst.startS == 30)
        #expect(abs((finding.energyJ ?? 0) - burst.energyJ) <= 1e-5 * burst.energyJ)
    }
}
