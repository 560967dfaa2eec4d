import DrainReport

/// The runs a candidate is compared with, as `drain gate --save-baseline` writes them
/// (`docs/gate.md#baselines`): every run's metric values (not only an aggregate, so that
/// the noise between runs is known), the finding keys with the share of runs they appeared
/// in, and where the runs came from.
public struct Baseline: Codable, Sendable, Equatable {
    /// The version of this file's format.
    public static let currentVersion = 1

    public var drainBaseline: Int
    /// `drain` and its version, of the gate that wrote the file.
    public var generator: String
    /// The report schema of the runs.
    public var reportSchemaVersion: Int
    /// The model every run was priced with.
    public var model: String
    public var scenario: String?
    /// The commit and branch the runs were made at, when the gate ran in a git work tree.
    public var git: GitRevision?
    /// The machine the gate ran on.
    public var host: HostInfo?
    public var runs: [BaselineRun]
    /// Every finding key of the runs, by key.
    public var findings: [BaselineFinding]

    public init(
        generator: String, model: String, scenario: String?, git: GitRevision?, host: HostInfo?, runs: [BaselineRun],
        reportSchemaVersion: Int = Report.currentSchemaVersion
    ) {
        drainBaseline = Self.currentVersion
        self.generator = generator
        self.reportSchemaVersion = reportSchemaVersion
        self.model = model
        self.scenario = scenario
        self.git = git
        self.host = host
        self.runs = runs
        findings = BaselineFinding.tally(runs)
    }

    /// A baseline of `reports` (runs of one scenario, priced with one model).
    public init(reports: [Report], generator: String, scenario: String?, git: GitRevision?, host: HostInfo?) {
        self.init(
            generator: generator, model: reports.first?.model.name ?? "", scenario: scenario, git: git, host: host,
            runs: reports.map(BaselineRun.init(report:)))
    }

    /// The values of `metric` over the runs that have it.
    public func values(_ metric: MetricDefinition) -> [Double] {
        runs.compactMap { $0.metrics[metric.name] ?? (metric.absentIsZero ? 0 : nil) }
    }

    /// The share of runs in which `key` was found (0 when never).
    public func share(of key: String) -> Double {
        findings.first { $0.key == key }?.share ?? 0
    }

    enum CodingKeys: String, CodingKey {
        case drainBaseline = "drain_baseline"
        case findings, generator, git, host, model
        case reportSchemaVersion = "report_schema_version"
        case runs, scenario
    }
}

/// One baseline run: its metrics and the keys of its findings.
public struct BaselineRun: Codable, Sendable, Equatable {
    /// Every metric of the run (`MetricCatalog.values`), by name.
    public var metrics: [String: Double]
    /// Its findings' keys, sorted, each once.
    public var findings: [String]
    /// The report the run came from, when it was given as a file.
    public var source: String?

    public init(metrics: [String: Double], findings: [String], source: String? = nil) {
        self.metrics = metrics
        self.findings = findings
        self.source = source
    }

    public init(report: Report) {
        self.init(metrics: MetricCatalog.values(in: report), findings: Array(Set(report.findings.map(\.key))).sorted())
    }
}

/// A finding key of the baseline and in how many of its runs it appeared.
public struct BaselineFinding: Codable, Sendable, Equatable {
    public var key: String
    public var runs: Int
    /// `runs` over the baseline's runs.
    public var share: Double

    /// Every key of `runs`, sorted by key.
    static func tally(_ runs: [BaselineRun]) -> [BaselineFinding] {
        var counts: [String: Int] = [:]
        for run in runs { for key in run.findings { counts[key, default: 0] += 1 } }
        return counts.keys.sorted().map { BaselineFinding(key: $0, runs: counts[$0]!, share: Double(counts[$0]!) / Double(runs.count)) }
    }
}

/// A git commit and branch.
public struct GitRevision: Codable, Sendable, Equatable {
    public var commit: String
    public var branch: String?

    public init(commit: String, branch: String?) {
        self.commit = commit
        self.branch = branch
    }
}

/// The machine a gate ran on: baselines from another machine are flagged, since energy
/// measured by a recorder or a probe depends on the CPU.
public struct HostInfo: Codable, Sendable, Equatable {
    public var cpu: String
    public var cores: Int

    public init(cpu: String, cores: Int) {
        self.cpu = cpu
        self.cores = cores
    }
}
