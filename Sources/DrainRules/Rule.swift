import DrainModel
import DrainReport
import DrainTrace

/// A tunable threshold of a rule, with its `GUIDANCE.md` default.
///
/// A rule declares each as a static constant, lists them in its description (in the order
/// reports show them) and reads them through the declaration:
///
/// ```swift
/// static let interval = RuleParameter("interval_s", default: 30, unit: "s", "the longest gap")
/// …
/// let seconds = context[Self.interval]
/// ```
///
/// `name` is the key in `--config` files, model `thresholds` and reports.
public struct RuleParameter: Sendable, Equatable {
    public var name: String
    public var defaultValue: Double
    public var unit: String
    public var summary: String

    public init(_ name: String, default defaultValue: Double, unit: String, _ summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.unit = unit
        self.summary = summary
    }
}

/// A small run that a rule's examples are made of: a timeline built in code, and for
/// triggering examples the severity the rule must report.
///
/// A scenario whose numbers depend on the device (a footprint at 90 % of the memory limit)
/// is built from the model it is evaluated with, so that it holds for every model.
public struct Scenario: Sendable {
    public var name: String
    /// For triggering examples: the highest severity the rule must report.
    public var expectedSeverity: Severity?
    /// Builds the run for the device model the example is evaluated with.
    public var makeTimeline: @Sendable (DeviceModel) -> Timeline

    public init(_ name: String, expect expectedSeverity: Severity? = nil, _ timeline: @escaping @Sendable () -> Timeline) {
        self.init(name, expect: expectedSeverity, model: { _ in timeline() })
    }

    public init(
        _ name: String, expect expectedSeverity: Severity? = nil,
        model timeline: @escaping @Sendable (DeviceModel) -> Timeline
    ) {
        self.name = name
        self.expectedSeverity = expectedSeverity
        self.makeTimeline = timeline
    }

    /// The example's run for `model`.
    public func timeline(for model: DeviceModel) -> Timeline { makeTimeline(model) }
}

/// Everything about a rule except its detection logic: identity, guidance, thresholds and
/// examples. Modelled on SwiftLint's `RuleDescription`.
public struct RuleDescription: Sendable {
    /// The stable `GUIDANCE.md` id, e.g. `CPU-POLLING`.
    public var id: String
    public var title: String
    public var area: GuidanceArea
    /// The severity of an ordinary finding; a rule may escalate per finding as GUIDANCE.md says.
    public var severity: Severity
    /// What the guidance says, in our words.
    public var guidance: String
    /// Where the guidance comes from (the `GUIDANCE.md` source tag and document).
    public var source: String
    /// The one-line fix.
    public var fix: String
    public var parameters: [RuleParameter]
    /// Runs the rule must flag.
    public var triggeringExamples: [Scenario]
    /// Runs the rule must pass (or find not applicable).
    public var nonTriggeringExamples: [Scenario]

    public init(
        id: String, title: String, area: GuidanceArea, severity: Severity, guidance: String, source: String,
        fix: String, parameters: [RuleParameter], triggeringExamples: [Scenario], nonTriggeringExamples: [Scenario]
    ) {
        self.id = id
        self.title = title
        self.area = area
        self.severity = severity
        self.guidance = guidance
        self.source = source
        self.fix = fix
        self.parameters = parameters
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }
}

/// What a rule sees: the priced run, the model, and its resolved thresholds.
public struct RuleContext: Sendable {
    public var priced: PricedTimeline
    public var model: DeviceModel
    /// Parameter name → value in force (defaults overridden by the model, then by `--config`).
    public var parameters: [String: Double]

    /// Work more than one rule needs, done once per run (the engine gives every rule of a
    /// run the same one).
    let shared: SharedRuleWork
    /// What of `shared` the rule may read: its declaration when the engine runs it, everything
    /// in a context made on its own.
    let reads: SharedReads

    public init(priced: PricedTimeline, model: DeviceModel, parameters: [String: Double]) {
        self.init(priced: priced, model: model, parameters: parameters, shared: SharedRuleWork(), reads: .all)
    }

    init(priced: PricedTimeline, model: DeviceModel, parameters: [String: Double], shared: SharedRuleWork, reads: SharedReads) {
        self.priced = priced
        self.model = model
        self.parameters = parameters
        self.shared = shared
        self.reads = reads
    }

    public var timeline: Timeline { priced.timeline }

    /// The flow of each `net` event, found once for all the rules of the run that ask. Only for
    /// a rule that declares it (`Rule.sharedReads`).
    var flowOfRow: FlowOfRow {
        assert(reads.contains(.flowOfRow), "the rule reads the flow of each event without declaring it")
        return shared.flowOfRow { FlowOfRow(timeline) }
    }

    /// The joules of each flow's `net` events, added up once for all the rules of the run that
    /// ask. Only for a rule that declares it (`Rule.sharedReads`).
    var flowEnergy: FlowEnergy {
        assert(reads.contains(.flowEnergy), "the rule reads the joules of each flow without declaring it")
        return shared.flowEnergy { FlowEnergy(shared.flowOfRow { FlowOfRow(timeline) }, eventEnergy: priced.eventEnergy) }
    }

    /// The app's background stretches (`LifecycleTrack`), found once for all the rules of the
    /// run. Any rule may read it.
    var lifecycleTrack: LifecycleTrack {
        shared.lifecycleTrack { LifecycleTrack(timeline) }
    }

    /// The value in force of one of the rule's parameters, read through the rule's own
    /// declaration (`context[Self.interval]`), so that a misspelt name does not compile. The
    /// engine resolves every parameter the rule lists in its description; the default stands
    /// for any other.
    public subscript(parameter: RuleParameter) -> Double {
        parameters[parameter.name] ?? parameter.defaultValue
    }
}

/// A rule's verdict on one run.
public enum RuleOutcome: Sendable, Equatable {
    /// The run has none of the data the rule needs (say which).
    case notApplicable(String)
    /// The rule ran; an empty list is a pass.
    case findings([Finding])
}

/// One guidance rule: a description and a check.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    /// The work shared by the rules of a run that the rule reads through its context (none by
    /// default). The engine frees each piece when the last rule that declares it is done; a
    /// debug build stops a rule that reads what it did not declare.
    static var sharedReads: SharedReads { get }
    init()
    func evaluate(_ context: RuleContext) -> RuleOutcome
}

extension Rule {
    public static var sharedReads: SharedReads { [] }
}
