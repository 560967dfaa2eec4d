import DrainGate

/// A stored run as `drain history list` shows it: where and when it was made, and two
/// headline figures.
public struct StoredRunSummary: Sendable, Equatable, Codable {
    public var id: Int
    public var project: String
    public var scenario: String
    public var branch: String?
    public var commit: String?
    /// When it was recorded (RFC 3339, UTC).
    public var recordedAt: String
    public var model: String
    /// `energy.total_j`, when the run has it.
    public var energyJ: Double?
    /// `memory.peak_bytes`, when the run has it.
    public var peakMemoryBytes: Double?

    enum CodingKeys: String, CodingKey {
        case branch, commit
        case energyJ = "energy_j"
        case id, model
        case peakMemoryBytes = "peak_memory_bytes"
        case project
        case recordedAt = "recorded_at"
        case scenario
    }
}

/// A stored run as `drain history show` gives it: everything but the report itself.
public struct StoredRun: Sendable, Equatable, Codable {
    public var summary: StoredRunSummary
    public var parents: [String]
    /// The start of the run (the report's `start`), when known.
    public var runStart: String?
    public var durationS: Double
    public var host: HostInfo?
    /// `drain` and its version, of the run that recorded it.
    public var generator: String
    public var reportSchemaVersion: Int
    /// The report JSON's size before compression, and its SHA-256.
    public var reportBytes: Int
    public var reportSHA256: String
    public var metrics: [StoredMetric]
    public var findings: [StoredFinding]

    enum CodingKeys: String, CodingKey {
        case durationS = "duration_s"
        case findings, generator, host, metrics, parents
        case reportBytes = "report_bytes"
        case reportSchemaVersion = "report_schema_version"
        case reportSHA256 = "report_sha256"
        case summary = "run"
        case runStart = "run_start"
    }
}

/// One metric row of a stored run.
public struct StoredMetric: Sendable, Equatable, Codable {
    public var name: String
    public var value: Double
    public var unit: String
}

/// Which runs `drain history list` and `prune` look at.
public struct RunFilter: Sendable, Equatable {
    public var project: String?
    public var scenario: String?
    public var branch: String?
    /// Runs recorded at or after this RFC 3339 time.
    public var since: String?
    /// Runs recorded before this RFC 3339 time.
    public var before: String?

    public init(project: String? = nil, scenario: String? = nil, branch: String? = nil, since: String? = nil, before: String? = nil) {
        self.project = project
        self.scenario = scenario
        self.branch = branch
        self.since = since
        self.before = before
    }
}
