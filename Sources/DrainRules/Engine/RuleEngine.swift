import DrainModel
import DrainReport
import DrainTrace

/// Runs every guidance rule over a priced run.
///
/// Each parameter resolves in three steps: the rule's default, then the device model's
/// `thresholds` for that rule, then the `--config` file. Rules run independently, shared out
/// over the processors (two at most), and their results are taken in catalogue order; each is
/// O(n) or O(n log n) in the events (see each rule).
public struct RuleEngine: Sendable {
    /// Every implemented rule, in `GUIDANCE.md` catalogue order.
    public static let allRules: [any Rule.Type] = [
        // Network
        NetPeriodicRule.self,
        NetSmallBurstsRule.self,
        NetUncompressedRule.self,
        NetChattyRule.self,
        NetConnectionReuseRule.self,
        NetCellularRule.self,
        NetRetransmitRule.self,
        NetLateCloseRule.self,
        NetBackgroundRule.self,
        // CPU and timers
        CPUWakeupsRule.self,
        CPUPollingRule.self,
        CPUTimerCoalesceRule.self,
        CPUFragmentedRule.self,
        CPUMainThreadRule.self,
        CPULaunchRule.self,
        // Disk
        DiskFrequentRule.self,
        DiskRewriteRule.self,
        DiskLocationRule.self,
        DiskVolumeRule.self,
        // Memory
        MemoryWarningResponseRule.self,
        MemoryPeakRule.self,
        MemoryGrowthRule.self,
        MemoryBackgroundRule.self,
        // Lifecycle
        ResignQuietRule.self,
        BackgroundTimeRule.self,
        BackgroundResourcesRule.self,
        // Display, sensors and location
        DrawRateRule.self,
        SensorIdleRule.self,
        LocationUpdatesRule.self,
        IdleTimerRule.self,
    ]

    /// The positions in `allRules` in the order the rules are started: first those that walk a
    /// capture's whole run again through bursts or the radio models (longest-first, measured on
    /// the long sessions capture of `docs/performance-captures.md`), so that the longest does
    /// not start last and finish alone on one core; then the rest in catalogue order. Results
    /// are still taken in catalogue order.
    static let startOrder: [Int] = {
        let leadingRules: [any Rule.Type] = [
            NetPeriodicRule.self, NetLateCloseRule.self, NetSmallBurstsRule.self, NetUncompressedRule.self, NetCellularRule.self,
        ]
        let leading = leadingRules.compactMap { rule in allRules.firstIndex { $0.description.id == rule.description.id } }
        return leading + allRules.indices.filter { !leading.contains($0) }
    }()

    /// The descriptions of `allRules`, in the same order.
    public static let descriptions: [RuleDescription] = allRules.map { $0.description }

    public let model: DeviceModel
    public let configuration: RuleConfiguration

    public init(model: DeviceModel, configuration: RuleConfiguration = RuleConfiguration()) {
        self.model = model
        self.configuration = configuration
    }

    /// Gives back what of `timeline` no enabled rule reads, before the run is priced: memory
    /// peaks while the rules run. Of a capture's HTTP messages only those NET-UNCOMPRESSED
    /// reads with its `min_body_bytes` in force stay
    /// (`NetUncompressedRule.messagesRead(from:strings:minimumBodyBytes:)`), none when it is
    /// disabled. The evaluation is the same as on `timeline` as it was. O(messages + flows).
    public func releaseUnread(from timeline: inout Timeline) {
        guard timeline.flows.http.count > 0 else { return }
        let rule = NetUncompressedRule.description
        guard configuration.isEnabled(rule.id) else {
            timeline.flows.http = HTTPMessageTable()
            return
        }
        let minimum = thresholds(for: rule).first { $0.parameter == NetUncompressedRule.minBodyBytes.name }?.value
        timeline.flows.http = NetUncompressedRule.messagesRead(
            from: timeline.flows.http, strings: timeline.strings, minimumBodyBytes: minimum ?? NetUncompressedRule.minBodyBytes.defaultValue)
    }

    /// The value and origin of every parameter of a rule.
    public func thresholds(for rule: RuleDescription) -> [ThresholdUsed] {
        rule.parameters.map { parameter in
            if let value = configuration.value(rule: rule.id, parameter: parameter.name) {
                return ThresholdUsed(rule: rule.id, parameter: parameter.name, value: value, unit: parameter.unit, origin: "config")
            }
            if let sourced = model.thresholds?[rule.id]?[parameter.name] {
                return ThresholdUsed(rule: rule.id, parameter: parameter.name, value: sourced.value, unit: parameter.unit, origin: "model")
            }
            return ThresholdUsed(
                rule: rule.id, parameter: parameter.name, value: parameter.defaultValue, unit: parameter.unit, origin: "default")
        }
    }

    /// Evaluates every rule; on a run of MetricKit aggregates only, rules that need events
    /// (all but the `AggregateRule`s) are not applicable. A rule's findings that share a key are
    /// merged into one (`Finding.mergedByKey`), and a finding keeps at most
    /// `TimeRange.findingLimit` time ranges (`TimeRange.limited`). Findings are sorted by severity
    /// (highest first), then catalogue order, then first time range, then the order the rule
    /// gave them.
    ///
    /// - Parameter threads: how many threads share the rules (the calling one included); the
    ///   evaluation is the same for any number.
    public func evaluate(_ priced: PricedTimeline, threads: Int = ParallelWork.defaultThreads()) -> RuleEvaluation {
        evaluate(priced, threads: threads, alongside: {}).evaluation
    }

    /// `evaluate(_:threads:)`, with `extra` work that only reads the same run (the report's
    /// figures) done on the same threads, before the rules that are not yet taken: it starts
    /// first, so a long piece of work does not finish last on its own.
    public func evaluate<Extra>(
        _ priced: PricedTimeline, threads: Int = ParallelWork.defaultThreads(),
        alongside extra: @Sendable () -> Extra
    ) -> (evaluation: RuleEvaluation, extra: Extra) {
        // nil for a disabled rule.
        let thresholdsByRule = Self.allRules.map { ruleType -> [ThresholdUsed]? in
            configuration.isEnabled(ruleType.description.id) ? thresholds(for: ruleType.description) : nil
        }
        let parameters = thresholdsByRule.map { used in
            used.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.parameter, $0.value) }) }
        }
        // Rules only read the priced run, so they are shared out over the cores.
        let readers = Self.allRules.filter { configuration.isEnabled($0.description.id) }.map { $0.sharedReads }
        let shared = SharedRuleWork(readers: readers)
        let pieces = ParallelWork.map(Self.allRules.count + 1, threads: threads) { piece -> Piece<Extra> in
            guard piece > 0 else { return .extra(extra()) }
            let order = Self.startOrder[piece - 1]
            guard let parameters = parameters[order] else { return .rule(nil) }
            let ruleType = Self.allRules[order]
            defer { shared.finishedReading(ruleType.sharedReads) }
            if priced.timeline.isAggregatesOnly && !(ruleType is any AggregateRule.Type) {
                return .rule(.notApplicable(RuleContext.needsTimelineReason))
            }
            let context = RuleContext(priced: priced, model: model, parameters: parameters, shared: shared, reads: ruleType.sharedReads)
            return .rule(ruleType.init().evaluate(context))
        }
        guard case .extra(let extraResult) = pieces[0] else { preconditionFailure("piece 0 is the extra work") }
        var outcomes = [RuleOutcome?](repeating: nil, count: Self.allRules.count)
        for (position, piece) in pieces.dropFirst().enumerated() {
            guard case .rule(let outcome) = piece else { preconditionFailure("pieces after the first are rules") }
            outcomes[Self.startOrder[position]] = outcome
        }
        var findings: [(order: Int, index: Int, finding: Finding)] = []
        var results: [RuleResult] = []
        var used: [ThresholdUsed] = []
        for (order, ruleType) in Self.allRules.enumerated() {
            let rule = ruleType.description
            guard let outcome = outcomes[order], let thresholds = thresholdsByRule[order] else {
                let reason = "disabled in \(configuration.path ?? "the configuration")"
                results.append(RuleResult(id: rule.id, area: rule.area, title: rule.title, status: .disabled, reason: reason))
                continue
            }
            used += thresholds
            switch outcome {
            case .notApplicable(let reason):
                results.append(RuleResult(id: rule.id, area: rule.area, title: rule.title, status: .notApplicable, reason: reason))
            case .findings(let found):
                let status = found.map(\.severity).max().map(RuleResult.Status.init) ?? .pass
                results.append(RuleResult(id: rule.id, area: rule.area, title: rule.title, status: status))
                findings += Finding.mergedByKey(found).enumerated().map { index, finding in
                    var bounded = finding
                    bounded.timeRanges = TimeRange.limited(finding.timeRanges)
                    return (order, index, bounded)
                }
            }
        }
        findings.sort { lhs, rhs in
            if lhs.finding.severity != rhs.finding.severity { return lhs.finding.severity > rhs.finding.severity }
            if lhs.order != rhs.order { return lhs.order < rhs.order }
            let lhsStart = lhs.finding.timeRanges.first?.startS ?? .infinity
            let rhsStart = rhs.finding.timeRanges.first?.startS ?? .infinity
            if lhsStart != rhsStart { return lhsStart < rhsStart }
            return lhs.index < rhs.index
        }
        return (RuleEvaluation(findings: findings.map(\.finding), results: results, thresholds: used), extraResult)
    }
}

/// One piece of `RuleEngine.evaluate(_:threads:alongside:)`'s work: the extra work, or a
/// rule's outcome (nil for a disabled rule).
private enum Piece<Extra> {
    case extra(Extra)
    case rule(RuleOutcome?)
}

extension RuleResult.Status {
    /// The status of a rule whose highest finding has `severity`.
    init(_ severity: Severity) {
        switch severity {
        case .info: self = .info
        case .warning: self = .warning
        case .error: self = .error
        }
    }
}
