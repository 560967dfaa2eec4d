import DrainReport
import DrainModel
@testable import DrainRules
import DrainTrace
import Testing

@Suite struct RuleEngineTests {
    /// A run that breaks several rules at several severities.
    func troubledRun() -> Timeline { troubledEvents().build(end: 30) }

    func troubledEvents() -> TimelineBuilder {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        // 60 polls in 10 s of foreground: CPU-POLLING and CPU-WAKEUPS (6 per second) warnings.
        for index in 0..<60 { run.poll(1 + Double(index) * 0.1, source: "socket", interval: 0.1) }
        run.memory(3, footprint: 1_900_000_000)  // MEM-PEAK warning (95 % of 2 GB)
        run.memoryWarning(4)
        run.memory(4.5, footprint: 1_950_000_000)  // MEM-WARNING-RESPONSE error (rose)
        run.lifecycle(10, .background)
        run.cpu(20, duration: 0.2)  // LIFE-BACKGROUND-TIME error
        return run
    }

    @Test("rules shared out over threads give the evaluation one thread gives", arguments: [2, 3, 8])
    func threadsDoNotChangeTheEvaluation(threads: Int) {
        var run = troubledEvents()
        // Network findings too: a periodic poll and chatty small exchanges to two hosts.
        for index in 0..<40 {
            let t = 0.5 + Double(index) * 0.7
            run.net(t, .tx, bytes: 300, host: index % 2 == 0 ? "api.example.com" : "cdn.example.net", link: .cellular)
            run.net(t + 0.05, .rx, bytes: 900, host: index % 2 == 0 ? "api.example.com" : "cdn.example.net", link: .cellular)
        }
        let model = TestModel.phone
        let priced = Pricer(model: model).price(run.build(end: 30))
        let single = RuleEngine(model: model).evaluate(priced, threads: 1)
        #expect(single.findings.count >= 5)
        #expect(RuleEngine(model: model).evaluate(priced, threads: threads) == single)
    }

    @Test func timeRangesBeyondTheLimitAreJoinedAcrossTheShortestGaps() {
        func ranges(_ pairs: [(Double, Double)]) -> [TimeRange] { pairs.map { TimeRange(startS: $0.0, endS: $0.1) } }
        let given = ranges([(30, 31), (0, 1), (11.5, 12), (2, 3), (10, 11)])
        // Gaps, in time order: 1 s, 7 s, 0.5 s, 18 s. Three ranges keep the 18 s and 7 s gaps.
        #expect(TimeRange.limited(given, to: 3) == ranges([(0, 3), (10, 12), (30, 31)]))
        #expect(TimeRange.limited(given, to: 1) == ranges([(0, 31)]))
        // At or under the limit nothing changes, not even the order.
        #expect(TimeRange.limited(given, to: 5) == given)
        // An overlap is a gap shorter than any other: (0, 5) swallows (1, 2) before (6, 7) joins.
        #expect(TimeRange.limited(ranges([(0, 5), (1, 2), (6, 7), (20, 21)]), to: 2) == ranges([(0, 7), (20, 21)]))
    }

    @Test func aFindingKeepsAtMostFiftyTimeRanges() throws {
        // 60 uncompressed JSON answers of one path, 5 s apart: NET-UNCOMPRESSED gives one range each.
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", remotePort: 80)
        for call in 0..<60 {
            let t = Double(call) * 5
            capture.exchange(api, at: t, request: 200, response: 2_300)
            capture.http(api, at: t, request: true, method: "GET", path: "/v1/feed")
            capture.http(api, at: t + 0.1, request: false, status: 200, contentType: "application/json", contentLength: 2_000, bodyBytes: 2_000)
        }
        let finding = try #require(evaluate(capture.build(end: 310)).findings.first { $0.rule == "NET-UNCOMPRESSED" })
        #expect(finding.number("messages") == 60)
        #expect(finding.timeRanges.count == 50)
        // Still from the first answer to the last.
        #expect(finding.timeRanges.first?.startS == 0.1)
        #expect(try #require(finding.timeRanges.last?.endS) >= 295.1)
    }

    @Test func findingsOfOneKeyAndTitleAreMergedAtTheMostSevere() {
        func finding(_ subject: String, _ severity: Severity, _ title: String = "T", energy: Double?, at start: Double) -> Finding {
            Finding(
                rule: "LIFE-BACKGROUND-TIME", area: .lifecycle, severity: severity, title: title, message: "at \(start).",
                evidence: [Evidence("start", start, unit: "s")], energyJ: energy, timeRanges: [TimeRange(startS: start, endS: start + 1)],
                fix: "", guidance: "", source: "", subject: subject)
        }
        let merged = Finding.mergedByKey([
            finding("upload-1", .info, energy: 1, at: 30), finding("upload-2", .warning, energy: nil, at: 5),
            finding("upload-1", .warning, energy: 2, at: 10), finding("upload-1", .info, energy: nil, at: 0),
            finding("upload-1", .info, "Other", energy: 4, at: 50),
        ])
        #expect(merged.map(\.key) == ["LIFE-BACKGROUND-TIME:upload-1", "LIFE-BACKGROUND-TIME:upload-2", "LIFE-BACKGROUND-TIME:upload-1"])
        let upload = merged[0]
        // The warning at 10 s leads; energies 1 + 2 (one occurrence had none); every range, in time order.
        #expect(upload.severity == .warning)
        #expect(upload.number("start") == 10 && upload.number("occurrences") == 3)
        #expect(upload.energyJ == 3)
        #expect(upload.timeRanges.map(\.startS) == [0, 10, 30])
        #expect(upload.message == "at 10.0. Seen 3 times in this run: these figures are the most severe occurrence's; the energy and time ranges cover every occurrence.")
        // Alone in their groups: unchanged.
        #expect(merged[1].number("occurrences") == nil && merged[1].energyJ == nil)
        #expect(merged[2].title == "Other" && merged[2].number("occurrences") == nil)
    }

    @Test func mergingAsFindingsAreMadeEqualsSortingThenMergingByKey() {
        // A fixed linear congruential sequence: shuffled places with ties, mixed severities,
        // energies that are whole numbers or absent (so any summation order is exact).
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let severities: [Severity] = [.info, .warning, .error]
        var made: [(place: Int, finding: Finding)] = []
        for index in 0..<400 {
            let start = Double(next(1_000))
            let finding = Finding(
                rule: "LIFE-BACKGROUND-TIME", area: .lifecycle, severity: severities[next(3)], title: next(2) == 0 ? "Long" : "Expired",
                message: "m\(next(50))-\(index).", evidence: [Evidence("start", start, unit: "s")],
                energyJ: next(3) == 0 ? nil : Double(next(100)), timeRanges: [TimeRange(startS: start, endS: start + 1)],
                fix: "", guidance: "", source: "", subject: "task-\(next(6))")
            made.append((next(60), finding))
        }
        var merger = FindingMerger<Int>()
        for (place, finding) in made { merger.add(finding, at: place) }
        let sorted = made.sorted { $0.place != $1.place ? $0.place < $1.place : $0.finding.message < $1.finding.message }
        let expected = Finding.mergedByKey(sorted.map(\.finding))
        #expect(expected.count == 12)
        #expect(expected.contains { $0.message.contains("the most severe occurrence's") })
        #expect(merger.findings() == expected)
    }

    @Test func findingsAreSortedBySeverityThenCatalogueThenTime() {
        let evaluation = evaluate(troubledRun())
        let order = evaluation.findings.map { "\($0.severity.rawValue) \($0.rule)" }
        #expect(order == [
            "error MEM-WARNING-RESPONSE", "error LIFE-BACKGROUND-TIME",
            "warning CPU-WAKEUPS", "warning CPU-POLLING", "warning MEM-PEAK",
        ])
    }

    @Test func findingsOfOneRuleAndSeverityAreSortedByTime() {
        var run = TimelineBuilder()
        for line in 0..<20 { run.disk(Double(line) * 10, .write, bytes: 100, path: "/d/app.log") }
        for chunk in 0..<70 { run.disk(500 + Double(chunk) * 0.5, .write, bytes: 8192, path: "/d/blob") }
        let titles = evaluate(run.build(end: 600)).findings(of: "DISK-FREQUENT").map(\.title)
        // The rule lists the rate finding (at 500 s) before the per-file one (from 0 s).
        #expect(titles == ["Small writes to one file", "Frequent disk writes"])
    }

    @Test func everyRuleHasAResultInCatalogueOrder() {
        let evaluation = evaluate(troubledRun())
        #expect(evaluation.results.map(\.id) == RuleEngine.descriptions.map(\.id))
        let status = Dictionary(uniqueKeysWithValues: evaluation.results.map { ($0.id, $0.status) })
        let expected: [String: RuleResult.Status] = [
            "NET-PERIODIC": .notApplicable, "NET-SMALL-BURSTS": .notApplicable, "NET-UNCOMPRESSED": .notApplicable,
            "NET-CHATTY": .notApplicable, "NET-CONN-REUSE": .notApplicable, "NET-CELLULAR": .notApplicable,
            "NET-RETRANSMIT": .notApplicable, "NET-LATE-CLOSE": .notApplicable,
            "NET-BACKGROUND": .notApplicable, "CPU-WAKEUPS": .warning, "CPU-POLLING": .warning, "CPU-TIMER-COALESCE": .notApplicable,
            "CPU-FRAGMENTED": .pass, "CPU-MAIN-THREAD": .notApplicable, "CPU-LAUNCH": .pass,
            "DISK-FREQUENT": .notApplicable, "DISK-REWRITE": .notApplicable, "DISK-LOCATION": .notApplicable,
            "DISK-VOLUME": .notApplicable, "MEM-WARNING-RESPONSE": .error, "MEM-PEAK": .warning,
            "MEM-GROWTH": .notApplicable, "MEM-BACKGROUND": .notApplicable, "LIFE-RESIGN-QUIET": .notApplicable,
            "LIFE-BACKGROUND-TIME": .error, "LIFE-BACKGROUND-RESOURCES": .notApplicable, "DRAW-RATE": .notApplicable,
            "SENSOR-IDLE": .notApplicable, "LOC-UPDATES": .notApplicable, "IDLE-TIMER": .notApplicable,
        ]
        for (id, expectedStatus) in expected { #expect(status[id] == expectedStatus, "\(id)") }
        #expect(status.count == expected.count)
        #expect(evaluation.result(of: "DISK-FREQUENT")?.reason == "the run records no disk events")
    }

    /// The attribution's readers first, so that it is freed early, then the longest rules.
    @Test func theAttributionReadersThenTheLongestRulesStartFirstAndEveryRuleStartsOnce() {
        #expect(RuleEngine.startOrder.sorted() == Array(RuleEngine.allRules.indices))
        let first = RuleEngine.startOrder.prefix(5).map { RuleEngine.descriptions[$0].id }
        #expect(first == ["NET-PERIODIC", "NET-LATE-CLOSE", "NET-SMALL-BURSTS", "NET-UNCOMPRESSED", "NET-CELLULAR"])
    }

    @Test func sameRunSameEvaluation() {
        #expect(evaluate(troubledRun()) == evaluate(troubledRun()))
    }

    @Test func thresholdsResolveDefaultThenModelThenConfig() throws {
        let model = TestModel.make(thresholds: ["CPU-WAKEUPS": ["foreground_per_s": 4, "background_per_s": 0.5]])
        let config = try configuration("rules: { CPU-WAKEUPS: { background_per_s: 2 } }")
        let engine = RuleEngine(model: model, configuration: config)
        let used = engine.thresholds(for: CPUWakeupsRule.description)
        func origin(_ name: String) -> (Double, String)? {
            used.first { $0.parameter == name }.map { ($0.value, $0.origin) }
        }
        #expect(origin("foreground_per_s")! == (4, "model"))
        #expect(origin("background_per_s")! == (2, "config"))
        #expect(origin("min_state_s")! == (1, "default"))
        #expect(used.allSatisfy { $0.rule == "CPU-WAKEUPS" && !$0.unit.isEmpty })
    }

    @Test func resolvedThresholdsChangeWhatRulesFind() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        for index in 0..<45 { run.timer(Double(index) * 10 / 45, name: "tick", interval: 0.2) }  // 4.5 per second
        let timeline = run.build(end: 10)
        #expect(evaluate(timeline).status(of: "CPU-WAKEUPS") == .pass)
        let strictModel = TestModel.make(thresholds: ["CPU-WAKEUPS": ["foreground_per_s": 4]])
        #expect(evaluate(timeline, model: strictModel).status(of: "CPU-WAKEUPS") == .warning)
        let lenient = try configuration("rules: { CPU-WAKEUPS: { foreground_per_s: 4.5 } }")
        #expect(evaluate(timeline, model: strictModel, configuration: lenient).status(of: "CPU-WAKEUPS") == .pass)
    }

    @Test(arguments: ["0", "1.0e+300"])
    func extremeButValidSettingsDoNotBreakTheRules(_ value: String) throws {
        let settings = RuleEngine.descriptions.map { rule in
            "  \(rule.id): { " + rule.parameters.map { "\($0.name): \(value)" }.joined(separator: ", ") + " }"
        }
        let config = try configuration("rules:\n" + settings.joined(separator: "\n"))
        var run = troubledEvents()
        for write in 0..<30 { run.disk(Double(write), .write, bytes: 100, path: "/d/log") }
        run.backgroundTask(12, .start, id: "task")
        let evaluation = evaluate(run.build(end: 30), configuration: config)
        #expect(evaluation.results.count == RuleEngine.allRules.count)
        #expect(evaluation.thresholds.allSatisfy { $0.origin == "config" })
    }

    @Test func disabledRulesReportWhyAndUseNoThresholds() throws {
        let config = try configuration("rules: { MEM-PEAK: { enabled: false } }")
        let evaluation = evaluate(troubledRun(), configuration: config)
        let result = try #require(evaluation.result(of: "MEM-PEAK"))
        #expect(result.status == .disabled)
        #expect(result.reason == "disabled in test.yaml")
        #expect(evaluation.findings(of: "MEM-PEAK").isEmpty)
        #expect(!evaluation.thresholds.contains { $0.rule == "MEM-PEAK" })
        let everyParameter = RuleEngine.descriptions.filter { $0.id != "MEM-PEAK" }.reduce(0) { $0 + $1.parameters.count }
        #expect(evaluation.thresholds.count == everyParameter)
    }
}
