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
}
