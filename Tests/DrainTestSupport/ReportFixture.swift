import DrainReport
import DrainTrace

/// Reports built by hand for the renderer tests: a realistic two-minute run, and a hostile
/// copy whose every string carries markup, script, quotes, separators and control characters.
public enum ReportFixture {
    public static let binS = 2.0
    public static let binCount = 60
    public static let batteryWh = 12.7
    public static let memoryLimit = 3_000_000_000.0
    /// Bins where the app starts a network burst (every 30 s).
    public static let burstBins = [0, 15, 30, 45]

    /// Joules per bin and category, in `EnergyCategory` order. Simple patterns so totals can
    /// be checked by hand:
    /// - cpu: 0.05 J every bin, plus 0.4 J in bins 10–14 (launch work): 60 × 0.05 + 5 × 0.4 = 5 J.
    /// - radio: 2.5 J in each burst bin and 2.12 J (1.06 W tail × 2 s) in the 4 bins after it:
    ///   4 × (2.5 + 4 × 2.12) = 43.92 J.
    /// - disk: 0.01 J every 5th bin: 12 × 0.01 = 0.12 J.
    /// - polling: 0.02 J in bins 20–59: 40 × 0.02 = 0.8 J.
    /// - display and location: nothing.
    /// - sensors: 0.003 J in bins 30–39: 10 × 0.003 = 0.03 J.
    /// Total 5 + 43.92 + 0.12 + 0.8 + 0.03 = 49.87 J.
    public static var energyBins: [[Double]] {
        (0..<binCount).map { bin in
            let cpu = 0.05 + ((10...14).contains(bin) ? 0.4 : 0)
            let radio: Double =
                if burstBins.contains(bin) { 2.5 } else if burstBins.contains(where: { (1...4).contains(bin - $0) }) { 2.12 } else { 0 }
            let disk = bin % 5 == 0 ? 0.01 : 0
            let polling = bin >= 20 ? 0.02 : 0
            let sensors = (30...39).contains(bin) ? 0.003 : 0
            return [cpu, radio, disk, polling, 0, 0, sensors]
        }
    }

    /// 180 MB growing by 2 MB per bin, a drop to 150 MB after the memory warning at bin 40,
    /// and no sample in every 7th bin.
    public static var memoryPeaks: [Double?] {
        (0..<binCount).map { bin in
            if bin % 7 == 3 { return nil }
            return bin == 40 ? 150_000_000 : 180_000_000 + 2_000_000 * Double(bin)
        }
    }

    public static var realistic: Report {
        let bins = energyBins
        let categories = EnergyCategory.allCases.map(\.name)
        var byCategory: [String: Double] = [:]
        for (index, name) in categories.enumerated() { byCategory[name] = bins.reduce(0) { $0 + $1[index] } }
        let duration = Double(binCount) * binS
        // Summed in category order: a dictionary's order, and so the rounding, varies per instance.
        let total = categories.reduce(0) { $0 + byCategory[$1]! }
        let averageMw = total / duration * 1000
        let peaks = memoryPeaks
        let peak = peaks.compactMap { $0 }.max()!
        let peakBin = peaks.firstIndex(of: peak)!
        let rules = ruleResults
        return Report(
            generator: "drain 0.1.0",
            model: ModelInfo(
                name: "iphone-lte", title: "iPhone-class phone on LTE", defaultLink: "cellular", cellular: "lte", burstGapS: 1.0,
                memoryLimitBytes: memoryLimit, batteryWh: batteryWh, score90Mw: 50, score50Mw: 400
            ),
            thresholds: [
                ThresholdUsed(rule: "NET-PERIODIC", parameter: "max_cv", value: 0.25, unit: "ratio", origin: "default"),
                ThresholdUsed(rule: "CPU-POLLING", parameter: "max_interval", value: 1, unit: "s", origin: "default"),
                ThresholdUsed(rule: "MEM-PEAK", parameter: "warn_share", value: 0.8, unit: "ratio", origin: "model"),
                ThresholdUsed(rule: "DISK-FREQUENT", parameter: "writes_per_minute", value: 60, unit: "1/min", origin: "config"),
            ],
            inputs: [
                ReportInput(
                    path: "captures/run-1.pcapng", format: "pcapng", events: nil, packets: 1843, process: nil, offsetS: -0.25,
                    diagnostics: [
                        ImportDiagnostic(severity: .warning, code: "truncated", message: "The last packet is cut short.", location: "byte 120934")
                    ]
                ),
                ReportInput(
                    path: "traces/feed-reader.drain.jsonl", format: "drain-trace", events: 5230, packets: nil, process: "FeedReader",
                    offsetS: 0,
                    diagnostics: [
                        ImportDiagnostic(
                            severity: .info, code: "unknown-type", message: "Unknown event type 'custom' kept and ignored.",
                            location: "line 17, column 1", count: 12
                        ),
                        ImportDiagnostic(severity: .warning, code: "out-of-order", message: "An event goes back in time by 3 ms.", location: "line 2210, column 6"),
                    ]
                ),
            ],
            start: "2026-03-14T09:26:53.589000000Z",
            durationS: duration,
            energy: EnergySummary(
                totalJ: total, averageMw: averageMw, mwh: total / 3.6, batteryPctPerHour: averageMw / 1000 / batteryWh * 100,
                byCategory: byCategory
            ),
            memory: MemorySummary(
                peakBytes: peak, peakTimeS: Double(peakBin) * binS + 1, limitBytes: memoryLimit, peakShareOfLimit: peak / memoryLimit,
                samples: peaks.compactMap { $0 }.count * 4, warnings: 1
            ),
            scores: scores(rules),
            findings: findings,
            rules: rules,
            endpoints: [
                EndpointSummary(endpoint: "api.example.com", bytesUp: 48_200, bytesDown: 1_204_800, bursts: 4, connections: 4, energyJ: 43.1),
                EndpointSummary(endpoint: "telemetry.example.net", bytesUp: 9_600, bytesDown: 2_100, bursts: 3, connections: 3, energyJ: 0.62),
                EndpointSummary(endpoint: "203.0.113.7", bytesUp: 800, bytesDown: 640, bursts: 1, connections: 1, energyJ: 0.2),
            ],
            breakdown: [
                KeyEnergy(category: "cpu", key: "main", energyJ: 3.9, entries: 412),
                KeyEnergy(category: "cpu", key: "com.example.sync-queue", energyJ: 1.1, entries: 96),
                KeyEnergy(category: "radio", key: "api.example.com", energyJ: 43.1, entries: 1620),
                KeyEnergy(category: "disk", key: "Library/Caches/feed.json", energyJ: 0.12, entries: 12),
                KeyEnergy(category: "polling", key: "NetworkMonitor.poll", energyJ: 0.8, entries: 400),
                KeyEnergy(category: "sensors", key: "accelerometer", energyJ: 0.03, entries: 2000),
            ],
            threads: [
                ThreadEnergy(thread: "main", busyS: 3.2, energyJ: 3.5, slices: 120),
                ThreadEnergy(thread: "com.example.sync", busyS: 1.1, energyJ: 1.2, slices: 40),
            ],
            radio: RadioSummary(
                states: [
                    RadioSummary.StateTotal(link: "cellular", state: "promotion", timeS: 1.04, energyJ: 1.258, attributed: true),
                    RadioSummary.StateTotal(link: "cellular", state: "active", timeS: 4.96, energyJ: 6.4, attributed: true),
                    RadioSummary.StateTotal(link: "cellular", state: "tail", timeS: 40.48, energyJ: 36.26, attributed: true),
                    RadioSummary.StateTotal(link: "cellular", state: "idle", timeS: 73.52, energyJ: 0, attributed: false),
                    RadioSummary.StateTotal(link: "wifi", state: "active", timeS: 0.5, energyJ: 0.2, attributed: true),
                ],
                promotions: 4, joulesPerKB: 0.034, lane: lane,
                bursts: [
                    BurstSummary(
                        link: "cellular", startS: 2.1, endS: 3.4, endpoint: "api.example.com", endpoints: 2, bytesUp: 12_000,
                        bytesDown: 301_200, events: 48, energyJ: 11.9),
                    BurstSummary(
                        link: "cellular", startS: 32.0, endS: 32.3, endpoint: "telemetry.example.net", endpoints: 1, bytesUp: 3_200,
                        bytesDown: 700, events: 4, energyJ: 11.4),
                ],
                burstCount: 7
            ),
            timeline: TimelineBins(
                binS: binS, categories: categories, energyJ: bins, memoryPeakBytes: peaks,
                lifecycle: [
                    LifecycleMark(timeS: 0.4, state: "inactive"), LifecycleMark(timeS: 1.2, state: "active"),
                    LifecycleMark(timeS: 80, state: "inactive"), LifecycleMark(timeS: 82, state: "background"),
                    LifecycleMark(timeS: 110, state: "suspended"),
                ],
                marks: [TimelineMark(timeS: 12, name: "feed loaded"), TimelineMark(timeS: 64, name: "sync done")]
            ),
            metrickit: metricKit(),
            metrics: [
                "energy.total_j": ReportMetric(value: total, unit: "J", perHour: total / duration * 3_600),
                "energy.average_mw": ReportMetric(value: averageMw, unit: "mW"),
                "wakeups.per_s": ReportMetric(value: 2.5, unit: "/s"),
                "memory.peak_bytes": ReportMetric(value: peak, unit: "B"),
                "findings.warning": ReportMetric(value: 2, unit: "count", perHour: 60),
            ],
            limits: ReportLimits(
                breakdown: ["cpu": ListLimit(limit: 25, total: 31), "disk": ListLimit(limit: 25, total: 2)],
                endpoints: ListLimit(limit: nil, total: 3), bursts: ListLimit(limit: 5_000, total: 7),
                radioLane: ListLimit(limit: 5_000, total: 9), lifecycle: ListLimit(limit: 5_000, total: 5),
                marks: ListLimit(limit: 5_000, total: 2), threads: ListLimit(limit: 25, total: 2))
        )
    }

    /// Per burst on LTE: promotion 0.26 s, active until 1.5 s, tail for 10.12 s; one Wi-Fi
    /// exchange at 100 s.
    public static var lane: [RadioLaneSegment] {
        var segments = burstBins.flatMap { bin -> [RadioLaneSegment] in
            let start = Double(bin) * binS
            return [
                RadioLaneSegment(link: "cellular", state: "promotion", startS: start, endS: start + 0.26),
                RadioLaneSegment(link: "cellular", state: "active", startS: start + 0.26, endS: start + 1.5),
                RadioLaneSegment(link: "cellular", state: "tail", startS: start + 1.5, endS: start + 11.62),
            ]
        }
        segments.append(RadioLaneSegment(link: "wifi", state: "active", startS: 100, endS: 100.5))
        segments.append(RadioLaneSegment(link: "wifi", state: "tail", startS: 100.5, endS: 100.75))
        return segments
    }

    public static var findings: [Finding] {
        [
            Finding(
                rule: "NET-PERIODIC", area: .network, severity: .warning, title: "Periodic transfers to api.example.com",
                message: "4 bursts every 30.0 s to api.example.com keep the cellular radio in its tail for 40 s.",
                evidence: [
                    Evidence("endpoint", text: "api.example.com"), Evidence("period", 30, unit: "s"), Evidence("bursts", 4),
                    Evidence("bytes", 1_253_000, unit: "B"), Evidence("promotion_tail_energy", 37.518, unit: "J"),
                ],
                energyJ: 37.518,
                timeRanges: burstBins.map { TimeRange(startS: Double($0) * binS, endS: Double($0) * binS + 11.62) },
                fix: "Batch the refreshes or let the server push changes.",
                guidance: "Do not poll the server; transmit in large chunks at long intervals.", source: "PWR, NET",
                subject: "api.example.com"
            ),
            Finding(
                rule: "CPU-POLLING", area: .cpu, severity: .error, title: "NetworkMonitor.poll checks every 0.1 s in background",
                message: "NetworkMonitor.poll ran 400 times at a 0.1 s interval, 190 of them in background.",
                evidence: [
                    Evidence("source", text: "NetworkMonitor.poll"), Evidence("interval", 0.1, unit: "s"), Evidence("count", 400),
                    Evidence("energy", 0.8, unit: "J"),
                ],
                energyJ: 0.8, timeRanges: [TimeRange(startS: 40, endS: 120)],
                fix: "Replace the polling loop with a dispatch source or a notification.",
                guidance: "Do not rely on polling; use run loops, timers and dispatch sources.", source: "PWR"
            ),
            Finding(
                rule: "MEM-GROWTH", area: .memory, severity: .warning, title: "Footprint grows 60 MB per minute",
                message: "The footprint grew from 180 MB to 298 MB at 60.0 MB/min (R² 0.97) over 118 s.",
                evidence: [Evidence("slope", 60, unit: "MB/min"), Evidence("window", 118, unit: "s"), Evidence("r_squared", 0.97)],
                energyJ: nil, timeRanges: [TimeRange(startS: 0, endS: 118)],
                fix: "Find what accumulates (caches without limits, leaks) and bound it.",
                guidance: "Eliminate leaks and avoid unbounded problems.", source: "MEM"
            ),
            Finding(
                rule: "CPU-TIMER-COALESCE", area: .cpu, severity: .info, title: "2 repeating timers are not aligned",
                message: "Timers refresh (30 s) and heartbeat (15 s) fire at different phases; aligning them removes 12 % of wakeups.",
                evidence: [Evidence("timers", 2), Evidence("removable_share", 0.12)],
                energyJ: 0.004, timeRanges: [],
                fix: "Give repeating timers a tolerance so the system can coalesce them.",
                guidance: "Coalesce work so the CPU wakes less often.", source: "PWR"
            ),
        ]
    }

    public static var ruleResults: [RuleResult] {
        [
            RuleResult(id: "NET-PERIODIC", area: .network, title: "Periodic transfers", status: .warning),
            RuleResult(id: "NET-SMALL-BURSTS", area: .network, title: "Small bursts keep the radio up", status: .pass),
            RuleResult(
                id: "NET-UNCOMPRESSED", area: .network, title: "Uncompressed text payloads", status: .notApplicable,
                reason: "All payloads are encrypted."
            ),
            RuleResult(id: "NET-BACKGROUND", area: .network, title: "Transfers in background", status: .pass),
            RuleResult(id: "CPU-WAKEUPS", area: .cpu, title: "Wakeup rate", status: .pass),
            RuleResult(id: "CPU-POLLING", area: .cpu, title: "Polling", status: .error),
            RuleResult(id: "CPU-TIMER-COALESCE", area: .cpu, title: "Timer coalescing", status: .info),
            RuleResult(id: "DISK-FREQUENT", area: .disk, title: "Frequent writes", status: .pass),
            RuleResult(id: "DISK-VOLUME", area: .disk, title: "Write volume", status: .disabled, reason: "Disabled by the budget file."),
            RuleResult(id: "MEM-PEAK", area: .memory, title: "Peak footprint", status: .pass),
            RuleResult(id: "MEM-GROWTH", area: .memory, title: "Steady growth", status: .warning),
            RuleResult(id: "LIFE-BACKGROUND-TIME", area: .lifecycle, title: "Background time", status: .pass),
            RuleResult(id: "DRAW-RATE", area: .display, title: "Drawing rate", status: .notApplicable, reason: "No frame events."),
        ]
    }

    /// GUIDANCE.md "Scores": each judged rule weighs 1; pass and info count 1, warning 0.5,
    /// error 0; an area's score is the mean × 100, the guidance score the mean of the areas.
    /// Here: network (0.5 + 1 + 1) / 3 = 83.33, cpu (1 + 0 + 1) / 3 = 66.67, disk 100,
    /// memory (1 + 0.5) / 2 = 75, lifecycle 100; display has no judged rule.
    public static func scores(_ rules: [RuleResult]) -> Scores {
        var areas: [String: Double] = [:]
        for area in GuidanceArea.allCases {
            let weights = rules.filter { $0.area == area }.compactMap { rule -> Double? in
                switch rule.status {
                case .pass, .info: 1
                case .warning: 0.5
                case .error: 0
                case .notApplicable, .disabled: nil
                }
            }
            if !weights.isEmpty { areas[area.rawValue] = weights.reduce(0, +) / Double(weights.count) * 100 }
        }
        let guidance = areas.isEmpty ? nil : areas.values.reduce(0, +) / Double(areas.count)
        return Scores(energy: 62.5, guidance: guidance, areas: areas)
    }

    /// The fixtures by name, so parameterised tests print a name rather than a whole report.
    public static let names = ["realistic", "hostile"]

    public static func named(_ name: String) -> Report { name == "hostile" ? hostileReport : realistic }

    // MARK: Hostile

    /// Everything a hostile capture could put in a string: markup that closes a script or an
    /// attribute, quotes, entities, a line separator, line breaks that would start a Markdown
    /// heading or a CSV record, separators, link and code syntax, and terminal escapes.
    public static let payload =
        "</script><script>alert(1)</script>\"><img src=x onerror=alert(1)>' &amp; \u{2028}\u{2029}\n# INJECTED\r\n"
        + "| x | y |,\"quoted\",[link](javascript:alert(1)) `code` <!-- \u{1B}[31mRED\u{1B}[2J\u{1B}]0;title\u{07}\u{9B}1m\u{202E}"

    public static func hostile(_ text: String) -> String { text + payload }

    /// The realistic report with `hostile` applied to every string in it.
    public static var hostileReport: Report {
        var report = realistic
        let h = hostile
        report.generator = h(report.generator)
        report.model.name = h(report.model.name)
        report.model.title = h(report.model.title)
        report.model.defaultLink = h(report.model.defaultLink)
        report.model.cellular = h(report.model.cellular)
        for index in report.thresholds.indices {
            report.thresholds[index].rule = h(report.thresholds[index].rule)
            report.thresholds[index].parameter = h(report.thresholds[index].parameter)
            report.thresholds[index].unit = h(report.thresholds[index].unit)
            report.thresholds[index].origin = h(report.thresholds[index].origin)
        }
        for index in report.inputs.indices {
            report.inputs[index].path = h(report.inputs[index].path)
            report.inputs[index].format = h(report.inputs[index].format)
            report.inputs[index].process = h(report.inputs[index].process ?? "process")
            for diagnostic in report.inputs[index].diagnostics.indices {
                report.inputs[index].diagnostics[diagnostic].code = h(report.inputs[index].diagnostics[diagnostic].code)
                report.inputs[index].diagnostics[diagnostic].message = h(report.inputs[index].diagnostics[diagnostic].message)
                report.inputs[index].diagnostics[diagnostic].location = h(report.inputs[index].diagnostics[diagnostic].location ?? "")
            }
        }
        report.energy.byCategory = Dictionary(uniqueKeysWithValues: report.energy.byCategory.map { (h($0.key), $0.value) })
        report.scores.areas = Dictionary(uniqueKeysWithValues: report.scores.areas.map { (h($0.key), $0.value) })
        for index in report.findings.indices {
            report.findings[index].rule = h(report.findings[index].rule)
            report.findings[index].title = h(report.findings[index].title)
            report.findings[index].message = h(report.findings[index].message)
            report.findings[index].fix = h(report.findings[index].fix)
            report.findings[index].guidance = h(report.findings[index].guidance)
            report.findings[index].source = h(report.findings[index].source)
            report.findings[index].subject = h(report.findings[index].subject ?? "subject")
            report.findings[index].key = h(report.findings[index].key)
            for item in report.findings[index].evidence.indices {
                report.findings[index].evidence[item].name = h(report.findings[index].evidence[item].name)
                report.findings[index].evidence[item].text = report.findings[index].evidence[item].text.map(h)
                report.findings[index].evidence[item].unit = report.findings[index].evidence[item].unit.map(h)
            }
        }
        for index in report.rules.indices {
            report.rules[index].id = h(report.rules[index].id)
            report.rules[index].title = h(report.rules[index].title)
            report.rules[index].reason = h(report.rules[index].reason ?? "")
        }
        for index in report.endpoints.indices { report.endpoints[index].endpoint = h(report.endpoints[index].endpoint) }
        for index in report.radio.bursts.indices {
            report.radio.bursts[index].endpoint = h(report.radio.bursts[index].endpoint)
            report.radio.bursts[index].link = h(report.radio.bursts[index].link)
        }
        for index in report.breakdown.indices {
            report.breakdown[index].category = h(report.breakdown[index].category)
            report.breakdown[index].key = h(report.breakdown[index].key)
        }
        for index in report.radio.states.indices {
            report.radio.states[index].link = h(report.radio.states[index].link)
            report.radio.states[index].state = h(report.radio.states[index].state)
        }
        for index in report.radio.lane.indices {
            report.radio.lane[index].link = h(report.radio.lane[index].link)
            report.radio.lane[index].state = h(report.radio.lane[index].state)
        }
        report.timeline.categories = report.timeline.categories.map(h)
        for index in report.timeline.lifecycle.indices { report.timeline.lifecycle[index].state = h(report.timeline.lifecycle[index].state) }
        report.metrickit = metricKit(h)
        for index in report.timeline.marks.indices { report.timeline.marks[index].name = h(report.timeline.marks[index].name) }
        for index in report.threads.indices { report.threads[index].thread = h(report.threads[index].thread) }
        report.start = h(report.start ?? "")
        report.metrics = Dictionary(
            uniqueKeysWithValues: report.metrics.map { ($0.key == "energy.total_j" ? $0.key : h($0.key), $0.value) })
        for (name, metric) in report.metrics { report.metrics[name]?.unit = h(metric.unit) }
        report.limits.breakdown = Dictionary(uniqueKeysWithValues: report.limits.breakdown.map { (h($0.key), $0.value) })
        return report
    }

    /// MetricKit aggregates of a day, every string of them (metadata, exit reasons, a crash's
    /// termination reason) passed through `text`: `hostile` makes them as untrusted as a
    /// capture's.
    public static func metricKit(_ text: (String) -> String = { $0 }) -> MetricAggregates {
        var aggregates = MetricAggregates()
        aggregates.metricPayloads = 1
        aggregates.diagnosticPayloads = 1
        aggregates.windowStart = 1_795_165_200_000_000_000
        aggregates.windowEnd = 1_795_251_600_000_000_000
        aggregates.metricSeconds = 86_400
        aggregates.metadata.appVersion = text("1.0")
        aggregates.metadata.appBuildVersion = text("42")
        aggregates.metadata.bundleIdentifier = text("com.example.app")
        aggregates.metadata.osVersion = text("iPhone OS 17.0")
        aggregates.metadata.deviceType = text("iPhone15,2")
        aggregates.metadata.platformArchitecture = text("arm64")
        aggregates.metadata.regionFormat = text("US")
        aggregates.cpuTimeS = 100
        aggregates.logicalWriteBytes = 1_300_000
        aggregates.cellularDownBytes = 150_000_000
        aggregates.exits = [MetricAggregates.ExitCount(reason: text("MemoryResourceLimit"), foreground: 1, background: 2)]
        aggregates.hangs = [MetricAggregates.Hang(durationS: 20)]
        aggregates.crashes = [MetricAggregates.Crash(exceptionType: 1, signal: 11, terminationReason: text("Namespace SIGNAL"))]
        return aggregates
    }
}
