@testable import DrainCompare
import DrainTestSupport

/// Comparisons built by hand for the page tests: a realistic two-run comparison (a feature
/// branch that polls more and runs longer than main), a three-run one, and a hostile copy
/// whose every string carries markup, script, quotes, `&` and line separators.
enum ComparisonFixture {
    static let binS = 2.0
    static let categories = ["cpu", "radio", "disk", "polling", "display", "location", "sensors"]

    /// The reference: `ReportFixture`'s two-minute run, radio bursts every 30 s.
    static var referenceBins: [[Double]] { ReportFixture.energyBins }

    /// A candidate of `count` bins whose radio bursts come every `burstEvery` bins, with
    /// `cpuScale` times the reference's CPU energy.
    static func candidateBins(count: Int, burstEvery: Int, cpuScale: Double) -> [[Double]] {
        (0..<count).map { bin in
            let cpu = (0.05 + ((10...14).contains(bin) ? 0.4 : 0)) * cpuScale
            let phase = bin % burstEvery
            let radio = phase == 0 ? 2.5 : (phase <= 4 ? 2.12 : 0)
            return [cpu, radio, bin % 5 == 0 ? 0.012 : 0, bin >= 20 ? 0.03 : 0, 0, 0, (30...39).contains(bin) ? 0.003 : 0]
        }
    }

    static func change(_ value: Double?, _ reference: Double?, perHour: (Double?, Double?) = (nil, nil)) -> Change? {
        guard let value, let reference else { return nil }
        let hourly = perHour.0.flatMap { run in perHour.1.map { run - $0 } }
        return Change(delta: value - reference, deltaPct: reference == 0 ? nil : (value - reference) / reference * 100, deltaPerHour: hourly)
    }

    static func metric(_ name: String, unit: String, values: [Double?], durations: [Double], additive: Bool) -> MetricRow {
        let perHour: [Double?] = values.enumerated().map { index, value in
            additive ? value.map { $0 / durations[index] * 3600 } : nil
        }
        let changes: [Change?] = values.indices.map { index in
            index == 0 ? nil : change(values[index], values[0], perHour: (perHour[index], perHour[0]))
        }
        return MetricRow(name: name, unit: unit, values: values, perHour: perHour, changes: changes)
    }

    static func keyRow(_ key: String, _ values: [Double?], presence: [KeyRow.Presence]) -> KeyRow {
        let status: [KeyRow.Status] = values.indices.map { index in
            if index == 0 { return .reference }
            switch (presence[0], presence[index]) {
            case (.listed, .listed): return values[index] == values[0] ? .unchanged : .changed
            case (.absent, .listed): return .added
            case (.listed, .absent): return .removed
            default: return .unknown
            }
        }
        let changes: [Change?] = values.indices.map { index in
            switch status[index] {
            case .changed, .unchanged: change(values[index], values[0])
            case .added: change(values[index], 0)
            case .removed: change(0, values[0])
            default: nil
            }
        }
        return KeyRow(key: key, values: values, presence: presence, changes: changes, status: status)
    }

    static func sums(_ bins: [[Double]]) -> [Double] {
        categories.indices.map { category in bins.reduce(0) { $0 + $1[category] } }
    }

    static func runTimeline(_ bins: [[Double]], offset: Double, feedLoaded: Double, background: Double, radioEvery: Double) -> RunTimeline {
        let end = offset + Double(bins.count) * binS
        var radio: [AlignedSpan] = []
        var start = offset
        while start < end {
            radio.append(AlignedSpan(link: "cellular", state: "active", startS: start, endS: min(end, start + 2)))
            radio.append(AlignedSpan(link: "cellular", state: "tail", startS: min(end, start + 2), endS: min(end, start + 10)))
            radio.append(AlignedSpan(link: "cellular", state: "idle", startS: min(end, start + 10), endS: min(end, start + radioEvery)))
            start += radioEvery
        }
        return RunTimeline(
            offsetS: offset, energyJ: bins,
            memoryPeakBytes: bins.indices.map { 180_000_000 + 2_000_000 * Double($0) },
            lifecycle: [AlignedEvent(timeS: offset, name: "active"), AlignedEvent(timeS: background, name: "background")],
            marks: [AlignedEvent(timeS: 0, name: "feed loaded"), AlignedEvent(timeS: feedLoaded, name: "sync done")],
            radio: radio.filter { $0.endS > $0.startS })
    }

    /// The difference of `run` minus `reference` on the reference's grid.
    static func difference(_ run: RunTimeline, _ reference: RunTimeline) -> [Double] {
        reference.energyJ.indices.map { bin in
            let time = reference.offsetS + Double(bin) * binS
            let index = Int(((time - run.offsetS) / binS).rounded(.down))
            let other = run.energyJ.indices.contains(index) ? run.energyJ[index].reduce(0, +) : 0
            return other - reference.energyJ[bin].reduce(0, +)
        }
    }

    static func comparison(runCount: Int) -> Comparison {
        var bins = [referenceBins, candidateBins(count: 65, burstEvery: 10, cpuScale: 1.3)]
        var runs = [
            ComparedRun(
                label: "main", model: "iphone-lte", inputs: ["captures/main.pcapng", "traces/main.drain.jsonl"], durationS: 120,
                activeDurationS: 120, start: "2025-03-01T10:00:00Z", anchorS: 2),
            ComparedRun(
                label: "feature/prefetch", model: "iphone-lte", inputs: ["captures/prefetch.pcapng", "traces/prefetch.drain.jsonl"],
                durationS: 130, activeDurationS: 130, start: "2025-03-01T11:00:00Z", anchorS: 4),
        ]
        var timelines = [
            runTimeline(bins[0], offset: -2, feedLoaded: 40, background: 100, radioEvery: 30),
            runTimeline(bins[1], offset: -4, feedLoaded: 28, background: 110, radioEvery: 20),
        ]
        if runCount > 2 {
            bins.append(candidateBins(count: 55, burstEvery: 30, cpuScale: 0.8))
            runs.append(
                ComparedRun(
                    label: "feature/batching", model: "iphone-lte", inputs: ["traces/batching.drain.jsonl"], durationS: 110,
                    activeDurationS: 110, start: nil, anchorS: 0))
            timelines.append(runTimeline(bins[2], offset: 0, feedLoaded: 35, background: 90, radioEvery: 30))
        }
        let durations = runs.map(\.activeDurationS)
        let categorySums = bins.map(sums)
        let totals = categorySums.map { $0.reduce(0, +) }
        let summary = [
            metric("Energy", unit: "J", values: totals, durations: durations, additive: true),
            metric("Average power", unit: "mW", values: totals.indices.map { totals[$0] / durations[$0] * 1000 }, durations: durations, additive: false),
            metric("Battery", unit: "%", values: totals.map { $0 / (12.7 * 3600) * 100 }, durations: durations, additive: true),
            metric("Memory peak", unit: "bytes", values: timelines.map { $0.memoryPeakBytes.compactMap { $0 }.max() }, durations: durations, additive: false),
            metric("Wakeups", unit: "", values: [412, 530, 300].prefix(runCount).map { $0 }, durations: durations, additive: true),
        ]
        let categoryRows = categories.indices.map { category in
            metric(categories[category], unit: "J", values: categorySums.map { $0[category] }, durations: durations, additive: true)
        }
        let endpoints = [
            keyRow("api.example.com:443", [30.1, 41.7, 28.0].prefix(runCount).map { $0 }, presence: Array(repeating: .listed, count: runCount)),
            keyRow("cdn.example.com:443", [10.2, 10.2, 9.1].prefix(runCount).map { $0 }, presence: Array(repeating: .listed, count: runCount)),
            keyRow("metrics.example.com:443", [nil, 4.4, 4.0].prefix(runCount).map { $0 }, presence: [.absent, .listed, .listed].prefix(runCount).map { $0 }),
            keyRow("ads.example.net:443", [3.6, nil, nil].prefix(runCount).map { $0 }, presence: [.listed, .absent, .notListed].prefix(runCount).map { $0 }),
        ]
        let files = [
            keyRow("Library/Caches/feed.db", [0.08, 0.11, 0.05].prefix(runCount).map { $0 }, presence: Array(repeating: .listed, count: runCount)),
            keyRow("tmp/prefetch.json", [nil, 0.03, nil].prefix(runCount).map { $0 }, presence: [.absent, .listed, .absent].prefix(runCount).map { $0 }),
        ]
        let threads = [
            keyRow("main", [3.1, 4.2, 2.4].prefix(runCount).map { $0 }, presence: Array(repeating: .listed, count: runCount)),
            keyRow("com.apple.network", [1.9, 2.2, 1.8].prefix(runCount).map { $0 }, presence: Array(repeating: .listed, count: runCount)),
        ]
        let findings = [
            FindingRow(
                key: "NET-PERIODIC:api.example.com", rule: "NET-PERIODIC", title: "Periodic requests to api.example.com",
                severity: ["warning", "error", "warning"].prefix(runCount).map { $0 }, energyJ: [20.0, 33.5, 19.0].prefix(runCount).map { $0 },
                status: [.reference, .worse, .better].prefix(runCount).map { $0 }),
            FindingRow(
                key: "CPU-POLLING:main", rule: "CPU-POLLING", title: "Polling timer on the main thread",
                severity: [nil, "warning", nil].prefix(runCount).map { $0 }, energyJ: [nil, 0.9, nil].prefix(runCount).map { $0 },
                status: [.reference, .new, .absent].prefix(runCount).map { $0 }),
            FindingRow(
                key: "DISK-REWRITE:Library/Caches/feed.db", rule: "DISK-REWRITE", title: "feed.db rewritten whole",
                severity: ["info", nil, "info"].prefix(runCount).map { $0 }, energyJ: [0.08, nil, 0.05].prefix(runCount).map { $0 },
                status: [.reference, .resolved, .unchanged].prefix(runCount).map { $0 }),
            FindingRow(
                key: "MEM-GROWTH", rule: "MEM-GROWTH", title: "Memory grows steadily",
                severity: ["info", "info", "info"].prefix(runCount).map { $0 }, energyJ: [nil, nil, nil].prefix(runCount).map { $0 },
                status: [.reference, .unchanged, .unchanged].prefix(runCount).map { $0 }),
        ]
        return Comparison(
            comparisonVersion: Comparison.currentVersion, generator: "drain 0.1.0", reference: 0, thresholdPct: 5, runs: runs,
            alignment: Alignment(mode: .mark, name: "feed loaded"),
            notes: ["The runs differ in length (120 s to 130 s): additive figures are compared per active hour too."],
            summary: summary, categories: categoryRows, endpoints: endpoints, files: files, threads: threads, findings: findings,
            timeline: ComparedTimeline(
                binS: binS, categories: categories, runs: timelines,
                difference: timelines.indices.map { $0 == 0 ? [] : difference(timelines[$0], timelines[0]) }))
    }

    static var twoRuns: Comparison { comparison(runCount: 2) }
    static var threeRuns: Comparison { comparison(runCount: 3) }

    /// What a hostile input could put in a string, plus markup that would set `window.__pwned`
    /// (what the browser tests look for).
    static let payload = ReportFixture.payload + "<img src=x onerror=window.__pwned=1>"

    static func hostile(_ text: String) -> String { text + payload }

    /// The two-run comparison with `hostile` applied to every string in it.
    static var hostileComparison: Comparison {
        var comparison = twoRuns
        let h = hostile
        comparison.generator = h(comparison.generator)
        comparison.notes = comparison.notes.map(h)
        comparison.alignment.name = comparison.alignment.name.map(h)
        for index in comparison.runs.indices {
            comparison.runs[index].label = h(comparison.runs[index].label)
            comparison.runs[index].model = h(comparison.runs[index].model)
            comparison.runs[index].inputs = comparison.runs[index].inputs.map(h)
            comparison.runs[index].start = comparison.runs[index].start.map(h)
        }
        comparison.summary = comparison.summary.map { row in var row = row; row.name = h(row.name); row.unit = h(row.unit); return row }
        comparison.categories = comparison.categories.map { row in var row = row; row.name = h(row.name); return row }
        comparison.endpoints = comparison.endpoints.map { row in var row = row; row.key = h(row.key); return row }
        comparison.files = comparison.files.map { row in var row = row; row.key = h(row.key); return row }
        comparison.threads = comparison.threads.map { row in var row = row; row.key = h(row.key); return row }
        comparison.findings = comparison.findings.map { row in
            var row = row
            (row.key, row.rule, row.title) = (h(row.key), h(row.rule), h(row.title))
            row.severity = row.severity.map { $0.map(h) }
            return row
        }
        comparison.timeline.categories = comparison.timeline.categories.map(h)
        for index in comparison.timeline.runs.indices {
            var run = comparison.timeline.runs[index]
            run.lifecycle = run.lifecycle.map { AlignedEvent(timeS: $0.timeS, name: h($0.name)) }
            run.marks = run.marks.map { AlignedEvent(timeS: $0.timeS, name: h($0.name)) }
            run.radio = run.radio.map { AlignedSpan(link: h($0.link), state: h($0.state), startS: $0.startS, endS: $0.endS) }
            comparison.timeline.runs[index] = run
        }
        return comparison
    }
}
