import DrainTrace

/// The result of one analysis: a plain Codable value that every renderer (JSON, CSV, HTML,
/// Markdown, terminal), the CI gate and the comparison read.
///
/// The JSON form is a public contract (`docs/reports.md`): keys are snake_case, new keys may
/// be added, existing keys never change meaning without a new `schema_version`.
public struct Report: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// `drain` and its version.
    public var generator: String
    public var model: ModelInfo
    /// Every rule threshold in force, with where its value came from.
    public var thresholds: [ThresholdUsed]
    public var inputs: [ReportInput]
    /// From time zero to the end of the run, seconds.
    public var durationS: Double
    public var energy: EnergySummary
    public var memory: MemorySummary
    public var scores: Scores
    public var findings: [Finding]
    /// Every rule's outcome, in catalogue order.
    public var rules: [RuleResult]
    /// Network traffic and radio energy per endpoint (host name when known, else address).
    public var endpoints: [EndpointSummary]
    /// Energy per key (file, timer, poll source, thread…) within each category.
    public var breakdown: [KeyEnergy]
    public var radio: RadioSummary
    public var timeline: TimelineBins
    /// The aggregate metrics of MetricKit inputs (seconds, bytes, counts), when any; absent
    /// from the JSON otherwise.
    public var metrickit: MetricAggregates?

    public init(
        schemaVersion: Int = Report.currentSchemaVersion, generator: String, model: ModelInfo,
        thresholds: [ThresholdUsed], inputs: [ReportInput], durationS: Double, energy: EnergySummary,
        memory: MemorySummary, scores: Scores, findings: [Finding], rules: [RuleResult],
        endpoints: [EndpointSummary], breakdown: [KeyEnergy], radio: RadioSummary, timeline: TimelineBins,
        metrickit: MetricAggregates? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.generator = generator
        self.model = model
        self.thresholds = thresholds
        self.inputs = inputs
        self.durationS = durationS
        self.energy = energy
        self.memory = memory
        self.scores = scores
        self.findings = findings
        self.rules = rules
        self.endpoints = endpoints
        self.breakdown = breakdown
        self.radio = radio
        self.timeline = timeline
        self.metrickit = metrickit
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case generator, model, thresholds, inputs
        case durationS = "duration_s"
        case energy, memory, scores, findings, rules, endpoints, breakdown, radio, timeline, metrickit
    }
}

/// The device model an analysis used.
public struct ModelInfo: Codable, Sendable, Equatable {
    public var name: String
    public var title: String
    /// `cellular` or `wifi`: the radio for traffic whose interface is not known.
    public var defaultLink: String
    /// `lte` or `umts`.
    public var cellular: String
    public var burstGapS: Double
    public var memoryLimitBytes: Double
    public var batteryWh: Double
    public var score90Mw: Double
    public var score50Mw: Double

    public init(
        name: String, title: String, defaultLink: String, cellular: String, burstGapS: Double,
        memoryLimitBytes: Double, batteryWh: Double, score90Mw: Double, score50Mw: Double
    ) {
        self.name = name
        self.title = title
        self.defaultLink = defaultLink
        self.cellular = cellular
        self.burstGapS = burstGapS
        self.memoryLimitBytes = memoryLimitBytes
        self.batteryWh = batteryWh
        self.score90Mw = score90Mw
        self.score50Mw = score50Mw
    }

    enum CodingKeys: String, CodingKey {
        case name, title
        case defaultLink = "default_link"
        case cellular
        case burstGapS = "burst_gap_s"
        case memoryLimitBytes = "memory_limit_bytes"
        case batteryWh = "battery_wh"
        case score90Mw = "score_90_mw"
        case score50Mw = "score_50_mw"
    }
}

/// One rule parameter's value in force.
public struct ThresholdUsed: Codable, Sendable, Equatable {
    public var rule: String
    public var parameter: String
    public var value: Double
    public var unit: String
    /// `default`, `model` or `config`.
    public var origin: String

    public init(rule: String, parameter: String, value: Double, unit: String, origin: String) {
        self.rule = rule
        self.parameter = parameter
        self.value = value
        self.unit = unit
        self.origin = origin
    }
}

/// One analysed input.
public struct ReportInput: Codable, Sendable, Equatable {
    public var path: String
    public var format: String
    public var events: Int?
    public var packets: Int?
    public var process: String?
    /// Seconds from the report's time zero to this input's time zero (inputs are aligned by
    /// wall clock).
    public var offsetS: Double
    public var diagnostics: [ImportDiagnostic]

    public init(
        path: String, format: String, events: Int?, packets: Int?, process: String?, offsetS: Double,
        diagnostics: [ImportDiagnostic]
    ) {
        self.path = path
        self.format = format
        self.events = events
        self.packets = packets
        self.process = process
        self.offsetS = offsetS
        self.diagnostics = diagnostics
    }

    enum CodingKeys: String, CodingKey {
        case path, format, events, packets, process
        case offsetS = "offset_s"
        case diagnostics
    }
}

public struct EnergySummary: Codable, Sendable, Equatable {
    public var totalJ: Double
    public var averageMw: Double
    public var mwh: Double
    public var batteryPctPerHour: Double
    /// Joules per category; every category of `EnergyCategory` is present.
    public var byCategory: [String: Double]

    public init(totalJ: Double, averageMw: Double, mwh: Double, batteryPctPerHour: Double, byCategory: [String: Double]) {
        self.totalJ = totalJ
        self.averageMw = averageMw
        self.mwh = mwh
        self.batteryPctPerHour = batteryPctPerHour
        self.byCategory = byCategory
    }

    enum CodingKeys: String, CodingKey {
        case totalJ = "total_j"
        case averageMw = "average_mw"
        case mwh
        case batteryPctPerHour = "battery_pct_per_hour"
        case byCategory = "by_category"
    }
}

public struct MemorySummary: Codable, Sendable, Equatable {
    /// Highest footprint sampled, or `nil` when the inputs have no memory samples.
    public var peakBytes: Double?
    public var peakTimeS: Double?
    public var limitBytes: Double
    /// `peak_bytes / limit_bytes`.
    public var peakShareOfLimit: Double?
    public var samples: Int
    public var warnings: Int

    public init(peakBytes: Double?, peakTimeS: Double?, limitBytes: Double, peakShareOfLimit: Double?, samples: Int, warnings: Int) {
        self.peakBytes = peakBytes
        self.peakTimeS = peakTimeS
        self.limitBytes = limitBytes
        self.peakShareOfLimit = peakShareOfLimit
        self.samples = samples
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey {
        case peakBytes = "peak_bytes"
        case peakTimeS = "peak_time_s"
        case limitBytes = "limit_bytes"
        case peakShareOfLimit = "peak_share_of_limit"
        case samples, warnings
    }
}

public struct Scores: Codable, Sendable, Equatable {
    /// 0–100 from average power on the model's log-normal curve, or `nil` when the run has no
    /// events to price (MetricKit aggregates only).
    public var energy: Double?
    /// Mean of the applicable areas, or `nil` when no rule had data.
    public var guidance: Double?
    /// Area name → 0–100, for areas where at least one rule had data.
    public var areas: [String: Double]

    public init(energy: Double?, guidance: Double?, areas: [String: Double]) {
        self.energy = energy
        self.guidance = guidance
        self.areas = areas
    }
}

/// The guidance areas of `GUIDANCE.md`.
public enum GuidanceArea: String, Codable, Sendable, CaseIterable {
    case network, cpu, disk, memory, lifecycle, display
}

public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
    case info, warning, error

    private var order: Int { self == .info ? 0 : (self == .warning ? 1 : 2) }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.order < rhs.order }
}

/// A named number (or text) that tripped a rule.
public struct Evidence: Codable, Sendable, Equatable {
    public var name: String
    public var value: Double?
    public var text: String?
    public var unit: String?

    public init(_ name: String, _ value: Double, unit: String? = nil) {
        self.name = name
        self.value = value
        self.text = nil
        self.unit = unit
    }

    public init(_ name: String, text: String) {
        self.name = name
        self.value = nil
        self.text = text
        self.unit = nil
    }
}

public struct TimeRange: Codable, Sendable, Equatable {
    public var startS: Double
    public var endS: Double

    public init(startS: Double, endS: Double) {
        self.startS = startS
        self.endS = endS
    }

    enum CodingKeys: String, CodingKey {
        case startS = "start_s"
        case endS = "end_s"
    }
}

/// One broken piece of guidance, with the evidence, the energy it cost and the fix.
public struct Finding: Codable, Sendable, Equatable {
    /// The `GUIDANCE.md` rule id.
    public var rule: String
    public var area: GuidanceArea
    public var severity: Severity
    public var title: String
    /// One sentence with the numbers that matter.
    public var message: String
    public var evidence: [Evidence]
    /// Energy attributed to the pattern, joules, where one can be attributed.
    public var energyJ: Double?
    public var timeRanges: [TimeRange]
    public var fix: String
    /// The guidance text and its source.
    public var guidance: String
    public var source: String

    public init(
        rule: String, area: GuidanceArea, severity: Severity, title: String, message: String, evidence: [Evidence],
        energyJ: Double?, timeRanges: [TimeRange], fix: String, guidance: String, source: String
    ) {
        self.rule = rule
        self.area = area
        self.severity = severity
        self.title = title
        self.message = message
        self.evidence = evidence
        self.energyJ = energyJ
        self.timeRanges = timeRanges
        self.fix = fix
        self.guidance = guidance
        self.source = source
    }

    enum CodingKeys: String, CodingKey {
        case rule, area, severity, title, message, evidence
        case energyJ = "energy_j"
        case timeRanges = "time_ranges"
        case fix, guidance, source
    }
}

/// A rule's outcome in one analysis.
public struct RuleResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pass, info, warning, error
        case notApplicable = "not_applicable"
        case disabled
    }

    public var id: String
    public var area: GuidanceArea
    public var title: String
    public var status: Status
    /// Why the rule was not applicable or disabled.
    public var reason: String?

    public init(id: String, area: GuidanceArea, title: String, status: Status, reason: String? = nil) {
        self.id = id
        self.area = area
        self.title = title
        self.status = status
        self.reason = reason
    }
}

public struct EndpointSummary: Codable, Sendable, Equatable {
    public var endpoint: String
    public var bytesUp: Int64
    public var bytesDown: Int64
    public var bursts: Int
    public var connections: Int
    public var energyJ: Double

    public init(endpoint: String, bytesUp: Int64, bytesDown: Int64, bursts: Int, connections: Int, energyJ: Double) {
        self.endpoint = endpoint
        self.bytesUp = bytesUp
        self.bytesDown = bytesDown
        self.bursts = bursts
        self.connections = connections
        self.energyJ = energyJ
    }

    enum CodingKeys: String, CodingKey {
        case endpoint
        case bytesUp = "bytes_up"
        case bytesDown = "bytes_down"
        case bursts, connections
        case energyJ = "energy_j"
    }
}

/// Energy of one key within one category.
public struct KeyEnergy: Codable, Sendable, Equatable {
    public var category: String
    public var key: String
    public var energyJ: Double
    public var entries: Int

    public init(category: String, key: String, energyJ: Double, entries: Int) {
        self.category = category
        self.key = key
        self.energyJ = energyJ
        self.entries = entries
    }

    enum CodingKeys: String, CodingKey {
        case category, key
        case energyJ = "energy_j"
        case entries
    }
}

public struct RadioSummary: Codable, Sendable, Equatable {
    public struct StateTotal: Codable, Sendable, Equatable {
        public var link: String
        public var state: String
        public var timeS: Double
        public var energyJ: Double
        /// Whether this energy counts as the app's (idle radio power does not).
        public var attributed: Bool

        public init(link: String, state: String, timeS: Double, energyJ: Double, attributed: Bool) {
            self.link = link
            self.state = state
            self.timeS = timeS
            self.energyJ = energyJ
            self.attributed = attributed
        }

        enum CodingKeys: String, CodingKey {
            case link, state
            case timeS = "time_s"
            case energyJ = "energy_j"
            case attributed
        }
    }

    public var states: [StateTotal]
    public var promotions: Int
    /// Radio joules per kilobyte transferred, or `nil` without traffic.
    public var joulesPerKB: Double?
    /// Radio state changes over time for the HTML lane: [start_s, end_s, state] per segment,
    /// idle omitted.
    public var lane: [RadioLaneSegment]
    /// The bursts of network traffic, per radio, in time order (at most `burstLimit`).
    public var bursts: [BurstSummary]
    /// How many bursts the run had; more than `bursts.count` when the list was cut.
    public var burstCount: Int

    /// The most bursts a report lists.
    public static let burstLimit = 5_000

    public init(
        states: [StateTotal], promotions: Int, joulesPerKB: Double?, lane: [RadioLaneSegment], bursts: [BurstSummary] = [],
        burstCount: Int? = nil
    ) {
        self.states = states
        self.promotions = promotions
        self.joulesPerKB = joulesPerKB
        self.lane = lane
        self.bursts = bursts
        self.burstCount = burstCount ?? bursts.count
    }

    enum CodingKeys: String, CodingKey {
        case states, promotions
        case joulesPerKB = "j_per_kb"
        case lane, bursts
        case burstCount = "burst_count"
    }
}

/// One burst: a run of packets (or `net` events) on one radio with gaps shorter than the
/// model's burst gap, and the radio energy charged to it (promotion, transfer, tail).
public struct BurstSummary: Codable, Sendable, Equatable {
    public var link: String
    public var startS: Double
    public var endS: Double
    /// The endpoint that moved the most bytes in the burst.
    public var endpoint: String
    /// How many endpoints the burst's traffic went to.
    public var endpoints: Int
    public var bytesUp: Int64
    public var bytesDown: Int64
    /// `net` events in the burst (packets, or coalesced packet runs of a capture).
    public var events: Int
    public var energyJ: Double

    public init(
        link: String, startS: Double, endS: Double, endpoint: String, endpoints: Int, bytesUp: Int64, bytesDown: Int64,
        events: Int, energyJ: Double
    ) {
        self.link = link
        self.startS = startS
        self.endS = endS
        self.endpoint = endpoint
        self.endpoints = endpoints
        self.bytesUp = bytesUp
        self.bytesDown = bytesDown
        self.events = events
        self.energyJ = energyJ
    }

    enum CodingKeys: String, CodingKey {
        case link
        case startS = "start_s"
        case endS = "end_s"
        case endpoint, endpoints
        case bytesUp = "bytes_up"
        case bytesDown = "bytes_down"
        case events
        case energyJ = "energy_j"
    }
}

public struct RadioLaneSegment: Codable, Sendable, Equatable {
    public var link: String
    public var state: String
    public var startS: Double
    public var endS: Double

    public init(link: String, state: String, startS: Double, endS: Double) {
        self.link = link
        self.state = state
        self.startS = startS
        self.endS = endS
    }

    enum CodingKeys: String, CodingKey {
        case link, state
        case startS = "start_s"
        case endS = "end_s"
    }
}

/// Energy over time in fixed bins, per category.
public struct TimelineBins: Codable, Sendable, Equatable {
    public var binS: Double
    /// Category names, in the order of each row of `energyJ`.
    public var categories: [String]
    /// `energy_j[bin][category]`, joules spent in `[bin × bin_s, (bin + 1) × bin_s)`.
    public var energyJ: [[Double]]
    /// Highest memory footprint sampled in each bin, or `nil` where none was sampled.
    public var memoryPeakBytes: [Double?]
    /// Lifecycle state changes: [time_s, state].
    public var lifecycle: [LifecycleMark]

    public init(binS: Double, categories: [String], energyJ: [[Double]], memoryPeakBytes: [Double?], lifecycle: [LifecycleMark]) {
        self.binS = binS
        self.categories = categories
        self.energyJ = energyJ
        self.memoryPeakBytes = memoryPeakBytes
        self.lifecycle = lifecycle
    }

    enum CodingKeys: String, CodingKey {
        case binS = "bin_s"
        case categories
        case energyJ = "energy_j"
        case memoryPeakBytes = "memory_peak_bytes"
        case lifecycle
    }
}

public struct LifecycleMark: Codable, Sendable, Equatable {
    public var timeS: Double
    public var state: String

    public init(timeS: Double, state: String) {
        self.timeS = timeS
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case timeS = "time_s"
        case state
    }
}
