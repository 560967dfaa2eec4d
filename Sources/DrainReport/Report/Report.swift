import DrainTrace

/// The result of one analysis: a plain Codable value that every renderer (JSON, CSV, HTML,
/// Markdown, terminal), the CI gate and the comparison read — made from inputs, or loaded
/// from a saved report JSON with `Report.load(path:)`.
///
/// The JSON form is a public contract (`docs/reports.md`, `docs/report.schema.json`): keys
/// are snake_case, new keys may be added, existing keys never change meaning without a new
/// `schema_version`.
public struct Report: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// `drain` and its version.
    public var generator: String
    public var model: ModelInfo
    /// Every rule threshold in force, with where its value came from.
    public var thresholds: [ThresholdUsed]
    public var inputs: [ReportInput]
    /// The wall-clock time of the run's time zero, RFC 3339 in UTC with nanoseconds
    /// (`2026-11-24T05:13:39.120000000Z`), or `nil` when no input carries a wall clock.
    public var start: String?
    /// From time zero to the end of the run, seconds.
    public var durationS: Double
    /// `durationS` less every time gap (a stretch longer than the gap threshold in which no
    /// input recorded anything): the time the run was observed. Average power, battery drain
    /// and per-hour metrics divide by it.
    public var activeDurationS: Double
    /// The run's time gaps and backward time jumps; `nil` when it had neither.
    public var timeGaps: TimeGapSummary?
    public var energy: EnergySummary
    public var memory: MemorySummary
    public var scores: Scores
    public var findings: [Finding]
    /// Every rule's outcome, in catalogue order.
    public var rules: [RuleResult]
    /// Network traffic and radio energy per endpoint (host name when known, else address).
    public var endpoints: [EndpointSummary]
    /// Energy per key (file, timer, poll source, slice name…) within each category.
    public var breakdown: [KeyEnergy]
    /// CPU and GPU time and energy per thread, the costliest first.
    public var threads: [ThreadEnergy]
    /// Traffic priced on the model's default link because no input said its link; `nil`
    /// when every byte's link was known.
    public var assumedLink: AssumedLink?
    public var radio: RadioSummary
    public var timeline: TimelineBins
    /// The aggregate metrics of MetricKit inputs (seconds, bytes, counts), when any; absent
    /// from the JSON otherwise.
    public var metrickit: MetricAggregates?
    /// Per-run figures by stable name (`energy.total_j`, `wakeups.per_s`, …), each with its
    /// unit and, for additive figures, its rate per active hour. What gates and comparisons
    /// read; `docs/reports.md` lists every name.
    public var metrics: [String: ReportMetric]
    /// How every cut list of the report was cut, so that a consumer can tell a key that is
    /// absent from one that was not listed.
    public var limits: ReportLimits

    public init(
        schemaVersion: Int = Report.currentSchemaVersion, generator: String, model: ModelInfo,
        thresholds: [ThresholdUsed], inputs: [ReportInput], start: String? = nil, durationS: Double,
        activeDurationS: Double? = nil, timeGaps: TimeGapSummary? = nil, energy: EnergySummary, memory: MemorySummary, scores: Scores,
        findings: [Finding], rules: [RuleResult], endpoints: [EndpointSummary], breakdown: [KeyEnergy],
        threads: [ThreadEnergy] = [], assumedLink: AssumedLink? = nil, radio: RadioSummary, timeline: TimelineBins, metrickit: MetricAggregates? = nil,
        metrics: [String: ReportMetric] = [:], limits: ReportLimits = ReportLimits()
    ) {
        self.schemaVersion = schemaVersion
        self.generator = generator
        self.model = model
        self.thresholds = thresholds
        self.inputs = inputs
        self.start = start
        self.durationS = durationS
        self.activeDurationS = activeDurationS ?? durationS
        self.timeGaps = timeGaps
        self.energy = energy
        self.memory = memory
        self.scores = scores
        self.findings = findings
        self.rules = rules
        self.endpoints = endpoints
        self.breakdown = breakdown
        self.threads = threads
        self.assumedLink = assumedLink
        self.radio = radio
        self.timeline = timeline
        self.metrickit = metrickit
        self.metrics = metrics
        self.limits = limits
    }

    enum CodingKeys: String, CodingKey {
        case activeDurationS = "active_duration_s"
        case assumedLink = "assumed_link"
        case breakdown
        case durationS = "duration_s"
        case endpoints, energy, findings, generator, inputs, limits, memory, metrickit, metrics, model, radio, rules
        case schemaVersion = "schema_version"
        case scores, start, threads, thresholds
        case timeGaps = "time_gaps"
        case timeline
    }
}
