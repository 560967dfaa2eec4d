import DrainRender
import DrainReport

/// What a comparison is asked for.
public struct ComparisonOptions: Sendable {
    /// One label per run (defaults are the runs' file names).
    public var labels: [String]
    public var alignment: Alignment
    /// Highlight changes beyond this share of the reference, percent (5 by default).
    public var thresholdPct: Double
    /// The common bin width, seconds; `nil` takes the least common multiple of the runs'.
    public var binS: Double?
    public var generator: String

    public init(labels: [String], alignment: Alignment = Alignment(mode: .start), thresholdPct: Double = 5, binS: Double? = nil, generator: String) {
        self.labels = labels
        self.alignment = alignment
        self.thresholdPct = thresholdPct
        self.binS = binS
        self.generator = generator
    }
}

/// Why runs cannot be compared.
public enum ComparisonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--bin` is not a whole multiple of every run's bin width.
    case binWidth(requested: Double, widths: [Double])

    public var description: String {
        switch self {
        case let .binWidth(requested, widths):
            "--bin \(Self.seconds(requested)) is not a whole multiple of every run's bin width "
                + "(\(widths.map(Self.seconds).joined(separator: ", "))): the runs cannot be re-binned to it without loss"
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension Comparison {
    /// Compares `reports` (at least two; the first is the reference). No re-analysis: only
    /// what the reports hold. O(bins + rows + findings) per run.
    ///
    /// - Throws: `ComparisonError.binWidth` when `options.binS` cannot be reached from every
    ///   run's bins without splitting them.
    public init(_ reports: [Report], options: ComparisonOptions) throws(ComparisonError) {
        precondition(reports.count >= 2, "a comparison needs at least two runs")
        let anchors = reports.map { Self.anchor(of: options.alignment, in: $0) }
        comparisonVersion = Self.currentVersion
        generator = options.generator
        reference = 0
        thresholdPct = options.thresholdPct
        alignment = options.alignment
        runs = zip(reports.indices, reports).map { index, report in
            ComparedRun(
                label: index < options.labels.count ? options.labels[index] : "run \(index + 1)", model: report.model.name,
                inputs: report.inputs.map(\.path), durationS: report.durationS, activeDurationS: report.activeDurationS,
                start: report.start, anchorS: anchors[index])
        }
        notes = Self.notes(reports, runs: runs, anchors: anchors, alignment: options.alignment)
        summary = Self.metricRows(reports, names: Self.summaryNames(reports))
        categories = Self.metricRows(reports, names: reports[0].timeline.categories.map { "energy.by_category.\($0)" })
        let threshold = options.thresholdPct
        endpoints = Self.keyRows(
            reports.map { report in (Dictionary(report.endpoints.map { ($0.endpoint, $0.energyJ) }, uniquingKeysWith: +), report.limits.endpoints) },
            threshold: threshold)
        files = Self.keyRows(
            reports.map { report in
                (
                    Dictionary(report.breakdown.filter { $0.category == "disk" }.map { ($0.key, $0.energyJ) }, uniquingKeysWith: +),
                    report.limits.breakdown["disk"] ?? ListLimit(limit: nil, total: 0)
                )
            }, threshold: threshold)
        threads = Self.keyRows(
            reports.map { report in (Dictionary(report.threads.map { ($0.thread, $0.energyJ) }, uniquingKeysWith: +), report.limits.threads) },
            threshold: threshold)
        findings = Self.findingRows(reports, threshold: threshold)
        timeline = try Self.timeline(reports, anchors: anchors.map { $0 ?? 0 }, binS: options.binS)
    }

    // MARK: Alignment

    /// The time of `alignment`'s anchor in `report`: 0 for the start, else the first mark of
    /// the name or change into the state; `nil` when the run has none.
    static func anchor(of alignment: Alignment, in report: Report) -> Double? {
        switch alignment.mode {
        case .start: 0
        case .mark: report.timeline.marks.first { $0.name == alignment.name }?.timeS
        case .state: report.timeline.lifecycle.first { $0.state == alignment.name }?.timeS
        }
    }

    static func notes(_ reports: [Report], runs: [ComparedRun], anchors: [Double?], alignment: Alignment) -> [String] {
        var notes: [String] = []
        for (run, anchor) in zip(runs, anchors) where anchor == nil {
            let what = alignment.mode == .mark ? "no mark \"\(alignment.name ?? "")\"" : "no change into \(alignment.name ?? "")"
            notes.append("\(run.label) has \(what): it is aligned at its start")
        }
        let lengths = reports.map(\.activeDurationS)
        if let shortest = lengths.min(), let longest = lengths.max(), shortest > 0, longest > shortest * 1.05 {
            notes.append(
                "the runs differ in length (\(runs.map { "\($0.label) \(DisplayNumber.duration($0.activeDurationS))" }.joined(separator: ", "))): "
                    + "compare the per-hour figures, not the totals")
        }
        return notes
    }

    // MARK: Metrics

    /// Total energy, power, battery, memory, wakeups and radio figures, in that order; radio
    /// time per state for every state any run has.
    static func summaryNames(_ reports: [Report]) -> [String] {
        let fixed = [
            "energy.total_j", "energy.average_mw", "energy.battery_pct_per_hour", "memory.peak_bytes", "memory.p95_bytes",
            "wakeups.per_s", "wakeups.foreground_per_s", "wakeups.background_per_s", "radio.promotions",
        ]
        let radio = Set(reports.flatMap { $0.metrics.keys.filter { $0.hasPrefix("radio.time_s.") } }).sorted()
        return fixed.filter { name in reports.contains { $0.metrics[name] != nil } } + radio
    }

    static func metricRows(_ reports: [Report], names: [String]) -> [MetricRow] {
        names.map { name in
            let metrics = reports.map { $0.metrics[name] }
            let values = metrics.map { $0?.value }
            let perHour = metrics.map { $0?.perHour }
            let changes = values.indices.map { index -> Change? in
                guard index > 0, let value = values[index], let reference = values[0] else { return nil }
                let hourly: Double? = if let run = perHour[index], let base = perHour[0] { run - base } else { nil }
                return Change(delta: value - reference, deltaPct: reference != 0 ? (value - reference) / abs(reference) * 100 : nil, deltaPerHour: hourly)
            }
            return MetricRow(name: name, unit: metrics.compactMap { $0?.unit }.first ?? "", values: values, perHour: perHour, changes: changes)
        }
    }

    // MARK: Keyed rows

    /// One row per key any run lists, by the largest energy change first.
    static func keyRows(_ runs: [(values: [String: Double], limit: ListLimit)], threshold: Double) -> [KeyRow] {
        let keys = Set(runs.flatMap(\.values.keys))
        let rows = keys.map { key -> KeyRow in
            let values = runs.map { $0.values[key] }
            let presence = runs.map { run -> KeyRow.Presence in
                run.values[key] != nil ? .listed : (run.limit.isTruncated ? .notListed : .absent)
            }
            var changes: [Change?] = [nil]
            var status: [KeyRow.Status] = [.reference]
            for index in runs.indices.dropFirst() {
                switch (presence[0], presence[index]) {
                case (.listed, .listed):
                    let reference = values[0]!, value = values[index]!
                    let share = reference != 0 ? (value - reference) / abs(reference) * 100 : nil
                    changes.append(Change(delta: value - reference, deltaPct: share))
                    status.append(abs(share ?? (value == 0 ? 0 : 100)) > threshold ? .changed : .unchanged)
                case (.absent, .listed):
                    changes.append(Change(delta: values[index]!, deltaPct: nil))
                    status.append(.added)
                case (.listed, .absent):
                    changes.append(Change(delta: -values[0]!, deltaPct: -100))
                    status.append(.removed)
                default:
                    changes.append(nil)
                    status.append(.unknown)
                }
            }
            return KeyRow(key: key, values: values, presence: presence, changes: changes, status: status)
        }
        return rows.sorted { lhs, rhs in
            let left = lhs.changes.compactMap { $0.map { abs($0.delta) } }.max() ?? 0
            let right = rhs.changes.compactMap { $0.map { abs($0.delta) } }.max() ?? 0
            return left != right ? left > right : lhs.key < rhs.key
        }
    }

    // MARK: Findings

    static func findingRows(_ reports: [Report], threshold: Double) -> [FindingRow] {
        struct Seen {
            var severity: Severity
            var energy: Double?
            var rule: String
            var title: String
        }
        let perRun: [[String: Seen]] = reports.map { report in
            var seen: [String: Seen] = [:]
            for finding in report.findings {
                var entry = seen[finding.key] ?? Seen(severity: finding.severity, energy: nil, rule: finding.rule, title: finding.title)
                entry.severity = max(entry.severity, finding.severity)
                if let energy = finding.energyJ { entry.energy = (entry.energy ?? 0) + energy }
                seen[finding.key] = entry
            }
            return seen
        }
        let order: [FindingRow.Status] = [.new, .worse, .resolved, .better, .unchanged, .absent, .reference]
        let rows = Set(perRun.flatMap(\.keys)).map { key -> FindingRow in
            let first = perRun.compactMap { $0[key] }.first!
            var status: [FindingRow.Status] = [.reference]
            let reference = perRun[0][key]
            for run in perRun.dropFirst() {
                let current = run[key]
                switch (reference, current) {
                case (nil, nil): status.append(.absent)
                case (nil, .some): status.append(.new)
                case (.some, nil): status.append(.resolved)
                case let (base?, now?):
                    if now.severity != base.severity {
                        status.append(now.severity > base.severity ? .worse : .better)
                    } else if let before = base.energy, let after = now.energy, abs(after - before) > max(0.001, abs(before) * threshold / 100) {
                        status.append(after > before ? .worse : .better)
                    } else {
                        status.append(.unchanged)
                    }
                }
            }
            return FindingRow(
                key: key, rule: first.rule, title: first.title, severity: perRun.map { $0[key]?.severity.rawValue },
                energyJ: perRun.map { $0[key]?.energy }, status: status)
        }
        func rank(_ row: FindingRow) -> Int { row.status.dropFirst().map { order.firstIndex(of: $0)! }.min() ?? order.count }
        return rows.sorted { lhs, rhs in
            if rank(lhs) != rank(rhs) { return rank(lhs) < rank(rhs) }
            let left = lhs.energyJ.compactMap { $0 }.max() ?? 0, right = rhs.energyJ.compactMap { $0 }.max() ?? 0
            return left != right ? left > right : lhs.key < rhs.key
        }
    }
}
