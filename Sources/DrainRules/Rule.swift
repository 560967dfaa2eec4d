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

    public init(priced: PricedTimeline, model: DeviceModel, parameters: [String: Double]) {
        self.init(priced: priced, model: model, parameters: parameters, shared: SharedRuleWork())
    }

    init(priced: PricedTimeline, model: DeviceModel, parameters: [String: Double], shared: SharedRuleWork) {
        self.priced = priced
        self.model = model
        self.parameters = parameters
        self.shared = shared
    }

    public var timeline: Timeline { priced.timeline }

    /// What each `net` event added to its radio's energy and whether it woke it
    /// (`RadioAttribution`), worked out once for all the rules of the run that ask.
    public var radioAttribution: RadioAttribution {
        shared.radioAttribution { RadioAttribution(timeline, model: model) }
    }

    /// The `net` events of each flow, gathered once for all the rules of the run that ask.
    var flowRows: FlowRows {
        shared.flowRows { FlowRows(timeline) }
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
    init()
    func evaluate(_ context: RuleContext) -> RuleOutcome
}

/// Work several rules of one run need, each piece done by the first rule that asks while any
/// other that asks for it meanwhile waits. NET-PERIODIC and NET-LATE-CLOSE both need the radio
/// attribution, a walk of every `net` event through the radios; four network rules go from
/// flows to their events.
final class SharedRuleWork: Sendable {
    private let attribution: OnceValue<RadioAttribution>
    private let flows = OnceValue<FlowRows>()
    /// How many of the rules that read the attribution have yet to finish.
    private let attributionReadersLeft: ProtectedCount

    /// `radioAttribution`: the run's, when it was worked out before the rules; taken over, so
    /// that it is freed when its last reader finishes. `attributionReaders`: how many rules of
    /// the run may read it (`finishedReadingRadioAttribution`).
    init(radioAttribution: consuming RadioAttribution? = nil, attributionReaders: Int = 0) {
        attribution = OnceValue(radioAttribution)
        attributionReadersLeft = ProtectedCount(attributionReaders)
    }

    func radioAttribution(_ make: () -> RadioAttribution) -> RadioAttribution { attribution.value(make) }

    /// Called by the engine when a rule that may read the attribution is done with it: after
    /// the last one the attribution (8 bytes per `net` event) is freed while the rules that
    /// follow run, when memory peaks.
    func finishedReadingRadioAttribution() {
        if attributionReadersLeft.decrement() == 0 { attribution.release() }
    }

    /// Whether the attribution is held (made or handed over, and not yet released).
    var holdsRadioAttribution: Bool { attribution.isHeld }

    func flowRows(_ make: () -> FlowRows) -> FlowRows { flows.value(make) }
}

/// A count that threads lower under a lock.
private final class ProtectedCount: @unchecked Sendable {
    private let lock = ThreadLock()
    private var count: Int

    init(_ count: Int) {
        self.count = count
    }

    /// Lowers the count by one and returns what is left.
    func decrement() -> Int {
        lock.withLock {
            count -= 1
            return count
        }
    }
}

/// A value made once, by the first caller, under its own lock.
private final class OnceValue<Value: Sendable>: @unchecked Sendable {
    private let lock = ThreadLock()
    private var made: Value?

    /// `made`: the value, when it is known already.
    init(_ made: Value? = nil) {
        self.made = made
    }

    func value(_ make: () -> Value) -> Value {
        lock.withLock {
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }

    /// Drops the value; a later caller would make it again.
    func release() {
        lock.withLock { made = nil }
    }

    var isHeld: Bool { lock.withLock { made != nil } }
}
