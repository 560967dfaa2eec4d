import DrainImport
import DrainModel
import DrainPipeline
import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// docs/reports.md, *Time gaps and active duration*: a merged capture whose time stamps jump
/// four years is split at the gap, and every rate uses the active duration.
@Suite struct TimeGapTests {
    /// 2015-03-01T00:00:00Z and 2019-03-01T00:00:00Z: 1461 days (one leap day) apart.
    static let first = 1_425_168_000.0
    static let second = 1_551_398_400.0
    static let device = "192.168.1.2"
    static let server = "93.184.216.34"

    /// One UDP datagram of 200 payload bytes from the device to the server at `time`.
    static func datagram(_ writer: inout PcapWriter, at time: Double, port: UInt16 = 50000) {
        writer.add(at: time, Frame.ethernet(IPPacket.udp(from: device, port, to: server, 443, [UInt8](repeating: 7, count: 200))))
    }

    /// A capture written to a temporary file; the caller removes `directory`.
    static func write(_ writer: PcapWriter) throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drain-gaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("merged.pcap")
        try writer.write(to: url)
        return (url.path, directory)
    }

    /// What `mergecap` makes of two sessions four years apart: packets at 0, 10, 20, 30 s of
    /// each session, in time order, in one file.
    static func mergedCapture() -> PcapWriter {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for start in [first, second] {
            for offset in [0.0, 10, 20, 30] { datagram(&writer, at: start + offset) }
        }
        return writer
    }

    @Test func aMergedCaptureIsSplitAtItsGap() throws {
        let (path, directory) = try Self.write(Self.mergedCapture())
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Analysis.run(AnalysisOptions(inputs: [path], capture: CaptureOptions(link: .wifi)))

        // The gap runs from the first session's last packet (30 s) to the second's first.
        let jump = Self.second - Self.first
        let gaps = try #require(report.timeGaps)
        #expect(gaps.thresholdS == 3_600)
        #expect(gaps.gaps == [TimeGapSummary.Gap(startS: 30, endS: jump, lengthS: jump - 30)])
        #expect(gaps.backwardJumps == 0 && gaps.largestBackwardJumpS == nil)
        #expect(report.start == "2015-03-01T00:00:00.000000000Z")

        // One diagnostic names the gap and its exact length: 126230370 s, 1461.0 days less 30 s.
        let diagnostic = try #require(report.inputs[0].diagnostics.first { $0.code == "time-gap" })
        #expect(diagnostic.count == 1 && diagnostic.severity == .warning)
        #expect(diagnostic.message.contains("126230370 s (1461.0 d) from 30.000 s to 126230400.000 s"))

        // Active: the first segment, 0–30 s, and the second, from its first packet to the
        // end of the run (its last packet at +30 s and the radio's tail after it).
        let firstSegment = 30.0
        let secondSegment = report.durationS - jump
        #expect(secondSegment >= 30 && secondSegment < 60)
        #expect(abs(report.activeDurationS - (firstSegment + secondSegment)) < 1e-6)
        #expect(abs(report.durationS - report.activeDurationS - (jump - 30)) < 1e-6)

        // Average power and battery drain over the active duration, not 4 years.
        let energy = report.energy
        #expect(energy.totalJ > 0)
        let averageW = energy.totalJ / report.activeDurationS
        #expect(abs(energy.averageMw - averageW * 1_000) < 1e-9 * energy.averageMw)
        #expect(abs(energy.batteryPctPerHour - averageW / report.model.batteryWh * 100) < 1e-9 * energy.batteryPctPerHour)
        #expect(report.metrics["energy.average_mw"]?.value == energy.averageMw)
        let perHour = try #require(report.metrics["energy.total_j"]?.perHour)
        #expect(abs(perHour - energy.totalJ / (report.activeDurationS / 3_600)) < 1e-9 * perHour)

        // The bins cover the two segments only: 1 s bins (about a minute of active time needs
        // no wider), 30 for the first, one per started second of the second, and no energy lost
        // (the tail after 30 s is kept in the first segment's last bin).
        let timeline = report.timeline
        #expect(timeline.binS == 1)
        let secondBins = Int(secondSegment.rounded(.up))
        #expect(timeline.energyJ.count == 30 + secondBins)
        #expect(timeline.segments == [
            TimelineSegment(startS: 0, endS: 30, firstBin: 0),
            TimelineSegment(startS: jump, endS: report.durationS, firstBin: 30),
        ])
        #expect(timeline.startS(ofBin: 29) == 29 && timeline.startS(ofBin: 30) == jump)
        let binned = timeline.energyJ.joined().reduce(0, +)
        #expect(abs(binned - energy.totalJ) < 1e-9 * energy.totalJ)

        // Every renderer shows the active duration and the gap.
        let terminal = TerminalReportRenderer.render(report, color: false)
        #expect(terminal.contains("35064 h 00 min wall span, ") && terminal.contains(" active"))
        #expect(terminal.contains("Gap       No events for 35063 h 59 min from 30.000 s to 126230400.000 s"))
        #expect(MarkdownReportRenderer.render(report).contains("## Time gaps\n\n- No events for 35063 h 59 min"))
        let html = try HTMLReportRenderer.render(report)
        #expect(html.contains("wall span, ") && html.contains("<li>No events for 35063 h 59 min"))
        let tables = Dictionary(uniqueKeysWithValues: CSVReportRenderer.tables(report).map { ($0.name, $0.csv) })
        #expect(tables["time_gaps"] == "start_s,end_s,length_s\r\n30.000,126230400.000,126230370.000\r\n")
        #expect(tables["summary"]?.contains("\r\ntime_gaps,1\r\n") == true)
        #expect(tables["timeline"]?.contains("\r\n30,126230400.000,126230401.000,") == true)
        let json = try JSONReportRenderer.render(report)
        #expect(json.contains("\"time_gaps\" : {"))
        #expect(try Report.decode(Data(json.utf8), path: "report.json") == report)
        // A saved report exported to Chrome: power drops to zero at the end of the first
        // segment's last bin (30 s) and resumes at the second segment (µs on Chrome's clock).
        let chrome = ChromeTraceExport.render(report: report)
        #expect(chrome.contains(#""name":"power (mW)","cat":"drain.priced","ts":30000000,"pid":1,"tid":1,"args":{"radio":0.0}"#))
        #expect(chrome.contains(#""name":"power (mW)","cat":"drain.priced","ts":126230400000000,"#))
    }

    /// The same capture before time-gap handling: average power over the wall span.
    @Test func theWallSpanWouldDiluteAveragePowerByMillions() throws {
        let (path, directory) = try Self.write(Self.mergedCapture())
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Analysis.run(AnalysisOptions(inputs: [path], capture: CaptureOptions(link: .wifi)))
        let overWallSpan = report.energy.totalJ / report.durationS * 1_000
        // 4 years against about a minute: the old average was over two million times lower.
        #expect(report.energy.averageMw / overWallSpan > 2_000_000)
    }

    /// NET-PERIODIC pairs no bursts across a gap: a check every 60 s in two segments 70 s
    /// apart is two runs of period 60 s, not one run of period 430 / 7 s.
    @Test func periodicRunsStopAtAGap() throws {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for offset in [0.0, 60, 120, 180, 250, 310, 370, 430] { Self.datagram(&writer, at: Self.first + offset) }
        let (path, directory) = try Self.write(writer)
        defer { try? FileManager.default.removeItem(at: directory) }

        let split = try Analysis.run(
            AnalysisOptions(inputs: [path], gapThresholdS: 65, capture: CaptureOptions(link: .cellular)))
        #expect(split.timeGaps?.gaps.map(\.startS) == [180])
        let finding = try #require(split.findings.first { $0.rule == "NET-PERIODIC" })
        #expect(finding.evidence.first { $0.name == "period" }?.value == 60)
        #expect(finding.evidence.first { $0.name == "runs" }?.value == 2)
        #expect(finding.evidence.first { $0.name == "bursts" }?.value == 8)

        // With the default threshold the 70 s stretch is no gap: one run, 7 intervals.
        let joined = try Analysis.run(AnalysisOptions(inputs: [path], capture: CaptureOptions(link: .cellular)))
        #expect(joined.timeGaps == nil)
        let whole = try #require(joined.findings.first { $0.rule == "NET-PERIODIC" })
        #expect(whole.evidence.first { $0.name == "period" }?.value == 430.0 / 7)
        #expect(whole.evidence.first { $0.name == "runs" }?.value == 1)
    }

    /// Packets out of time order are counted with their largest step back.
    @Test func backwardJumpsAreCountedWithTheirSize() throws {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        // 10 → 4 is 6 s back, 20 → 18 is 2 s back.
        for offset in [0.0, 10, 4, 20, 18] { Self.datagram(&writer, at: Self.first + offset) }
        let (path, directory) = try Self.write(writer)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Analysis.run(AnalysisOptions(inputs: [path], capture: CaptureOptions(link: .wifi)))
        let gaps = try #require(report.timeGaps)
        #expect(gaps.gaps.isEmpty)
        #expect(gaps.backwardJumps == 2 && gaps.largestBackwardJumpS == 6)
        let diagnostic = try #require(report.inputs[0].diagnostics.first { $0.code == "out-of-order-packets" })
        #expect(diagnostic.count == 2 && diagnostic.message.contains("the largest step back 6.000 s"))
        #expect(report.activeDurationS == report.durationS)
        #expect(TerminalReportRenderer.render(report, color: false).contains("2 backward time jumps in the inputs, the largest 6 s"))
    }

    /// A Drain trace with a gap: wakeup rates over the active time, and a sensor left on
    /// across the gap charged for its segments only.
    @Test func aDrainTraceWithAGap() throws {
        // Foreground wakeups every 0.1 s: 100 at 0–9.9 s, then 100 at 7210–7219.9 s.
        var lines = [#"{"drain_trace":1,"process":"Gaps","start":"2026-01-01T00:00:00Z"}"#]
        lines.append(#"{"t":0,"type":"lifecycle","state":"active"}"#)
        lines.append(#"{"t":0,"type":"sensor","kind":"accelerometer","action":"start","rate_hz":50}"#)
        for start in [0, 72_100] {
            for tenth in start..<(start + 100) {
                lines.append(#"{"t":\#(tenth / 10).\#(tenth % 10),"type":"wakeup","reason":"timer","source":"tick"}"#)
            }
        }
        lines.append(#"{"t":5.5,"type":"memory","footprint":40000000}"#)
        lines.append(#"{"t":7215.5,"type":"memory","footprint":50000000}"#)
        lines.append(#"{"t":7219.9,"type":"sensor","kind":"accelerometer","action":"stop"}"#)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drain-gaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gap.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)

        let report = try Analysis.run(AnalysisOptions(inputs: [path]))
        // The gap: from the wakeup at 9.9 s to the one at 7210 s.
        #expect(report.timeGaps?.gaps == [TimeGapSummary.Gap(startS: 9.9, endS: 7_210, lengthS: 7_200.1)])
        #expect(report.inputs[0].diagnostics.contains { $0.code == "time-gap" && $0.count == 1 })
        #expect(report.durationS == 7_219.9)
        // Two segments of 9.9 s each.
        #expect(abs(report.activeDurationS - 19.8) < 1e-9)
        // 200 wakeups over 19.8 active seconds (10.1/s, above the 5/s foreground limit),
        // not over 7219.9 s (0.03/s, which would pass).
        let rate = 200 / 19.8
        #expect(abs((report.metrics["wakeups.per_s"]?.value ?? 0) - rate) < 1e-9)
        #expect(abs((report.metrics["wakeups.foreground_per_s"]?.value ?? 0) - rate) < 1e-9)
        let wakeups = try #require(report.findings.first { $0.rule == "CPU-WAKEUPS" && $0.evidence.contains { $0.text == "foreground" } })
        #expect(abs((wakeups.evidence.first { $0.name == "time in state" }?.value ?? 0) - 19.8) < 1e-9)
        #expect(abs((wakeups.evidence.first { $0.name == "foreground rate" }?.value ?? 0) - rate) < 1e-9)
        // 1 s bins: 10 for each 9.9 s segment; a memory sample falls in its segment's bin.
        #expect(report.timeline.binS == 1 && report.timeline.energyJ.count == 20)
        var memory = [Double?](repeating: nil, count: 20)
        memory[5] = 40_000_000  // 5.5 s
        memory[15] = 50_000_000  // 7215.5 s: 5 s into the second segment, whose bins start at 10
        #expect(report.timeline.memoryPeakBytes == memory)
        // The accelerometer ran 0–7219.9 s, but was observed for 19.8 s of it.
        let model = try ModelCatalog.load(nameOrPath: report.model.name)
        let sensorJ = 19.8 * model.sensors.accelerometerW.value
        // (Category totals are summed in `Float` banks: about 7 significant digits.)
        #expect(abs((report.energy.byCategory["sensors"] ?? 0) - sensorJ) < 1e-6 * sensorJ)
        // 0.198 J at 10 mW; over the wall span it would have been 72.199 J.
        #expect(model.sensors.accelerometerW.value == 0.01)
    }

    @Test func theThresholdIsValidated() throws {
        #expect(AnalysisOptions.seconds(fromDuration: "1h") == 3_600)
        #expect(AnalysisOptions.seconds(fromDuration: "90") == 90)
        #expect(AnalysisOptions.seconds(fromDuration: "30m") == 1_800)
        #expect(AnalysisOptions.seconds(fromDuration: "1.5d") == 129_600)
        #expect(AnalysisOptions.seconds(fromDuration: "45s") == 45)
        for bad in ["", "h", "-1h", "1x", "1e3", "1 h", "nan"] { #expect(AnalysisOptions.seconds(fromDuration: bad) == nil) }
        // Refused before any input is read (this one does not exist).
        #expect {
            try Analysis.run(AnalysisOptions(inputs: ["missing.jsonl"], gapThresholdS: 59))
        } throws: { error in
            (error as? AnalysisError)?.description.contains("the gap threshold must be at least 60 s") == true
        }
    }
}
