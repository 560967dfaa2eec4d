@testable import DrainCompare
import DrainReport
import DrainTestSupport
import Testing

@Suite struct ComparisonTests {
    let options = ComparisonOptions(labels: ["before", "after"], generator: "drain test")

    /// The realistic fixture with `totalJ` as its total and metrics per hour over `activeS`.
    func run(totalJ: Double = 49.87, activeS: Double = 120) -> Report {
        var report = ReportFixture.realistic
        report.activeDurationS = activeS
        report.metrics["energy.total_j"] = ReportMetric(value: totalJ, unit: "J", perHour: totalJ / activeS * 3_600)
        return report
    }

    func finding(_ rule: String, _ severity: Severity, subject: String, energyJ: Double? = nil) -> Finding {
        Finding(
            rule: rule, area: .network, severity: severity, title: "\(rule) title", message: "m", evidence: [], energyJ: energyJ,
            timeRanges: [], fix: "f", guidance: "g", source: "s", subject: subject)
    }

    @Test func figuresChangeAgainstTheReferenceAbsolutelyAndPerHour() throws {
        // 10 J over 100 s is 360 J/h; 12 J over 200 s is 216 J/h: more in total, less per hour.
        let comparison = try Comparison([run(totalJ: 10, activeS: 100), run(totalJ: 12, activeS: 200)], options: options)
        let total = try #require(comparison.summary.first { $0.name == "energy.total_j" })
        #expect(total.values == [10, 12] && total.unit == "J")
        #expect(total.changes[0] == nil)
        let change = try #require(total.changes[1])
        #expect(abs(change.delta - 2) < 1e-12 && abs(change.deltaPct! - 20) < 1e-9)
        #expect(abs(change.deltaPerHour! - (216 - 360)) < 1e-9)
        #expect(comparison.notes == ["the runs differ in length (before 100 s, after 3 min 20 s): compare the per-hour figures, not the totals"])
        #expect(comparison.categories.map(\.name) == ReportFixture.realistic.timeline.categories.map { "energy.by_category.\($0)" })
    }

    @Test func keysAreAddedRemovedChangedOrUnknownWhenAListWasCut() throws {
        var reference = run(), candidate = run()
        reference.endpoints = [
            EndpointSummary(endpoint: "kept.example", bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 10),
            EndpointSummary(endpoint: "same.example", bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 4),
            EndpointSummary(endpoint: "gone.example", bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 3),
        ]
        candidate.endpoints = [
            EndpointSummary(endpoint: "kept.example", bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 12),
            EndpointSummary(endpoint: "same.example", bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 4.1),
            EndpointSummary(endpoint: "new.example", bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 5),
        ]
        reference.limits.endpoints = ListLimit(limit: nil, total: 3)
        candidate.limits.endpoints = ListLimit(limit: nil, total: 3)
        // Threads: the candidate's list was cut, so a thread missing there may be below it.
        reference.threads = [ThreadEnergy(thread: "main", busyS: 1, energyJ: 2, slices: 1), ThreadEnergy(thread: "io", busyS: 1, energyJ: 1, slices: 1)]
        candidate.threads = [ThreadEnergy(thread: "main", busyS: 1, energyJ: 2, slices: 1)]
        reference.limits.threads = ListLimit(limit: 25, total: 2)
        candidate.limits.threads = ListLimit(limit: 1, total: 7)
        let comparison = try Comparison([reference, candidate], options: options)
        func row(_ rows: [KeyRow], _ key: String) throws -> KeyRow { try #require(rows.first { $0.key == key }) }
        #expect(try row(comparison.endpoints, "kept.example").status == [.reference, .changed])
        #expect(try row(comparison.endpoints, "same.example").status == [.reference, .unchanged])  // +2.5 % < 5 %
        #expect(try row(comparison.endpoints, "gone.example").status == [.reference, .removed])
        #expect(try row(comparison.endpoints, "gone.example").presence == [.listed, .absent])
        #expect(try row(comparison.endpoints, "new.example").status == [.reference, .added])
        #expect(try row(comparison.endpoints, "new.example").changes[1]?.delta == 5)
        // Largest change first: new (+5), gone (−3), kept (+2), same (+0.1).
        #expect(comparison.endpoints.map(\.key) == ["new.example", "gone.example", "kept.example", "same.example"])
        let io = try row(comparison.threads, "io")
        #expect(io.presence == [.listed, .notListed] && io.status == [.reference, .unknown] && io.changes[1] == nil)
    }

    @Test func findingsAreMatchedByKeyWithEveryStatus() throws {
        var reference = run(), second = run(), third = run()
        reference.findings = [
            finding("NET-PERIODIC", .warning, subject: "a.example", energyJ: 10),
            finding("DISK-REWRITE", .warning, subject: "/tmp/state.json", energyJ: 1),
            finding("CPU-POLLING", .error, subject: "banner"),
            finding("NET-CHATTY", .warning, subject: "b.example", energyJ: 2),
            finding("MEM-PEAK", .warning, subject: "x", energyJ: 1),
        ]
        second.findings = [
            finding("NET-PERIODIC", .error, subject: "a.example", energyJ: 10),  // severity up: worse
            finding("CPU-POLLING", .warning, subject: "banner"),  // severity down: better
            finding("NET-CHATTY", .warning, subject: "b.example", energyJ: 2.05),  // +2.5 %: unchanged
            finding("MEM-PEAK", .warning, subject: "x", energyJ: 1.5),  // +50 %: worse
            finding("NET-UNCOMPRESSED", .warning, subject: "c.example/feed", energyJ: 3),  // new
        ]  // DISK-REWRITE resolved
        third.findings = [finding("NET-PERIODIC", .warning, subject: "a.example", energyJ: 4)]
        let comparison = try Comparison([reference, second, third], options: ComparisonOptions(labels: [], generator: "drain test"))
        func status(_ key: String) throws -> [FindingRow.Status] { try #require(comparison.findings.first { $0.key == key }).status }
        #expect(try status("NET-PERIODIC:a.example") == [.reference, .worse, .better])
        #expect(try status("CPU-POLLING:banner") == [.reference, .better, .resolved])
        #expect(try status("NET-CHATTY:b.example") == [.reference, .unchanged, .resolved])
        #expect(try status("MEM-PEAK:x") == [.reference, .worse, .resolved])
        #expect(try status("NET-UNCOMPRESSED:c.example/feed") == [.reference, .new, .absent])
        #expect(try status("DISK-REWRITE:/tmp/state.json") == [.reference, .resolved, .resolved])
        // New first, then worse (by energy), then resolved, better.
        #expect(comparison.findings.map(\.key) == [
            "NET-UNCOMPRESSED:c.example/feed", "NET-PERIODIC:a.example", "MEM-PEAK:x", "NET-CHATTY:b.example", "DISK-REWRITE:/tmp/state.json",
            "CPU-POLLING:banner",
        ])
        #expect(comparison.runs.map(\.label) == ["run 1", "run 2", "run 3"])
    }

    @Test func timelinesAreRebinnedToTheLeastCommonMultiple() throws {
        var coarse = run()
        // 24 bins of 5 s: 1 J of cpu each; the fixture keeps 60 bins of 2 s.
        coarse.timeline.binS = 5
        coarse.timeline.energyJ = (0..<24).map { _ in [1, 0, 0, 0, 0, 0, 0] }
        coarse.timeline.memoryPeakBytes = (0..<24).map { Double($0) }
        let comparison = try Comparison([run(), coarse], options: options)
        #expect(comparison.timeline.binS == 10)
        let fine = comparison.timeline.runs[0], rebinned = comparison.timeline.runs[1]
        // 60 bins of 2 s → 12 of 10 s, each the sum of 5; 24 of 5 s → 12 of 10 s, 2 J of cpu each.
        #expect(fine.energyJ.count == 12 && rebinned.energyJ.count == 12)
        #expect(rebinned.energyJ.allSatisfy { $0[0] == 2 })
        let fixture = ReportFixture.energyBins
        #expect(abs(fine.energyJ[2][1] - (10..<15).reduce(0) { $0 + fixture[$1][1] }) < 1e-12)
        // Memory takes the maximum of the merged bins: 1, 3, 5….
        #expect(rebinned.memoryPeakBytes.prefix(3) == [1, 3, 5])
        // Same offsets: the difference is per bin, candidate minus reference.
        let expected = (0..<12).map { 2 - fine.energyJ[$0].reduce(0, +) }
        #expect(zip(comparison.timeline.difference[1], expected).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(try Comparison([run(), coarse], options: ComparisonOptions(labels: [], binS: 20, generator: "t")).timeline.binS == 20)
        #expect(throws: ComparisonError.binWidth(requested: 3, widths: [2, 5])) {
            try Comparison([run(), coarse], options: ComparisonOptions(labels: [], binS: 3, generator: "t"))
        }
    }

    @Test func runsAlignAtTheirStartAMarkOrALifecycleState() throws {
        var shifted = run()
        shifted.timeline.marks = [TimelineMark(timeS: 15, name: "feed loaded")]
        shifted.timeline.lifecycle = [LifecycleMark(timeS: 3, state: "active")]
        // The fixture: "feed loaded" at 12 s, active at 1.2 s.
        let byMark = try Comparison([run(), shifted], options: ComparisonOptions(labels: [], alignment: Alignment(mode: .mark, name: "feed loaded"), generator: "t"))
        #expect(byMark.runs.map(\.anchorS) == [12, 15])
        #expect(byMark.timeline.runs.map(\.offsetS) == [-12, -15])
        #expect(byMark.timeline.runs[1].marks == [AlignedEvent(timeS: 0, name: "feed loaded")])
        let byState = try Comparison([run(), shifted], options: ComparisonOptions(labels: [], alignment: Alignment(mode: .state, name: "active"), generator: "t"))
        #expect(byState.runs.map(\.anchorS) == [1.2, 3])
        #expect(byState.timeline.runs[1].lifecycle == [AlignedEvent(timeS: 0, name: "active")])
        let byStart = try Comparison([run(), shifted], options: options)
        #expect(byStart.timeline.runs.map(\.offsetS) == [0, 0])
        let missing = try Comparison([run(), shifted], options: ComparisonOptions(labels: ["a", "b"], alignment: Alignment(mode: .mark, name: "nope"), generator: "t"))
        #expect(missing.runs.map(\.anchorS) == [nil, nil])
        #expect(missing.notes == ["a has no mark \"nope\": it is aligned at its start", "b has no mark \"nope\": it is aligned at its start"])
    }

    @Test func aHalfBinShiftSplitsTheDifferenceInProportion() {
        // Reference: bins of 10 s at 0 with 4 J and 6 J. Run: one bin of 10 J starting at 5 s.
        let reference = RunTimeline(offsetS: 0, energyJ: [[4], [6]], memoryPeakBytes: [nil, nil], lifecycle: [], marks: [], radio: [])
        let candidate = RunTimeline(offsetS: 5, energyJ: [[10]], memoryPeakBytes: [nil], lifecycle: [], marks: [], radio: [])
        // Half the run's 10 J falls in each reference bin: 5 − 4 and 5 − 6.
        #expect(Comparison.difference(candidate, from: reference, binS: 10) == [1, -1])
        // Shifted past the reference's end: the grid grows to hold it.
        let late = RunTimeline(offsetS: 15, energyJ: [[10]], memoryPeakBytes: [nil], lifecycle: [], marks: [], radio: [])
        #expect(Comparison.difference(late, from: reference, binS: 10) == [-4, -1, 5])
    }
}
