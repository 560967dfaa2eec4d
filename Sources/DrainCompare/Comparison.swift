/// Two or more runs compared with the first (the reference), as `drain compare` computes it
/// from their reports (`docs/compare.md`): versioned and Codable, so that `--json` is the
/// whole comparison and the HTML page draws from it. Deterministic.
public struct Comparison: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public var comparisonVersion: Int
    public var generator: String
    /// The run every other run is compared with: always the first.
    public var reference: Int
    /// Rows whose change exceeds this share of the reference are highlighted (percent).
    public var thresholdPct: Double
    public var runs: [ComparedRun]
    public var alignment: Alignment
    /// What a reader must know: runs of different lengths, anchors that were not found.
    public var notes: [String]
    /// Run-level figures: energy, power, battery, memory, wakeups, radio.
    public var summary: [MetricRow]
    /// Energy per category.
    public var categories: [MetricRow]
    /// Radio energy per endpoint.
    public var endpoints: [KeyRow]
    /// Disk energy per file.
    public var files: [KeyRow]
    /// CPU and GPU energy per thread.
    public var threads: [KeyRow]
    /// Findings matched by key: new, worse, resolved, better, then unchanged.
    public var findings: [FindingRow]
    public var timeline: ComparedTimeline

    enum CodingKeys: String, CodingKey {
        case alignment, categories
        case comparisonVersion = "comparison_version"
        case endpoints, files, findings, generator, notes, reference, runs, summary, threads
        case thresholdPct = "threshold_pct"
        case timeline
    }
}

/// One compared run.
public struct ComparedRun: Codable, Sendable, Equatable {
    public var label: String
    public var model: String
    /// The report's inputs (or the report file itself when a saved report was given).
    public var inputs: [String]
    public var durationS: Double
    public var activeDurationS: Double
    public var start: String?
    /// The anchor's time on the run's own clock (0 when aligned at the start), or `nil` when
    /// the run has no such anchor (it is then aligned at its start).
    public var anchorS: Double?

    enum CodingKeys: String, CodingKey {
        case activeDurationS = "active_duration_s"
        case anchorS = "anchor_s"
        case durationS = "duration_s"
        case inputs, label, model, start
    }
}

/// How the runs' timelines are lined up.
public struct Alignment: Codable, Sendable, Equatable {
    public enum Mode: String, Codable, Sendable {
        /// Each run's time zero.
        case start
        /// Each run's first mark of a name.
        case mark
        /// Each run's first change into a lifecycle state.
        case state
    }

    public var mode: Mode
    /// The mark name or lifecycle state.
    public var name: String?

    public init(mode: Mode, name: String? = nil) {
        self.mode = mode
        self.name = name
    }

    /// `start`, `mark:NAME` or `state:STATE`, as `--align` takes it; `nil` for anything else.
    public init?(argument: String) {
        if argument == "start" {
            self.init(mode: .start)
        } else if argument.hasPrefix("mark:"), argument.count > 5 {
            self.init(mode: .mark, name: String(argument.dropFirst(5)))
        } else if argument.hasPrefix("state:"), ["not_running", "inactive", "active", "background", "suspended"].contains(String(argument.dropFirst(6))) {
            self.init(mode: .state, name: String(argument.dropFirst(6)))
        } else {
            return nil
        }
    }

    /// `--align`'s spelling.
    public var argument: String {
        switch mode {
        case .start: "start"
        case .mark: "mark:\(name ?? "")"
        case .state: "state:\(name ?? "")"
        }
    }
}

/// A change of one value against the reference's.
public struct Change: Codable, Sendable, Equatable {
    /// run − reference, in the row's unit.
    public var delta: Double
    /// `delta` over the reference, percent; `nil` when the reference is zero.
    public var deltaPct: Double?
    /// The change of the values per active hour, for additive figures.
    public var deltaPerHour: Double?

    enum CodingKeys: String, CodingKey {
        case delta
        case deltaPct = "delta_pct"
        case deltaPerHour = "delta_per_hour"
    }
}

/// A figure of every run: `values[i]` is run i's, `changes[i]` its change against the
/// reference (`nil` for the reference itself and where either value is missing).
public struct MetricRow: Codable, Sendable, Equatable {
    public var name: String
    public var unit: String
    public var values: [Double?]
    /// Per active hour, for additive figures.
    public var perHour: [Double?]
    public var changes: [Change?]

    enum CodingKeys: String, CodingKey {
        case changes, name
        case perHour = "per_hour"
        case unit, values
    }
}

/// One key (endpoint, file, thread) across the runs.
public struct KeyRow: Codable, Sendable, Equatable {
    /// Where the key stands in one run.
    public enum Presence: String, Codable, Sendable {
        /// In the run's list.
        case listed
        /// Not in the run, whose list is complete: the run did not have it.
        case absent
        /// Not in the run's list, which was cut at its limit: it may be below the last row.
        case notListed = "not_listed"
    }

    /// The key compared with the reference.
    public enum Status: String, Codable, Sendable {
        case reference, added, removed, changed, unchanged
        /// Absent from both, or not listed on a side: no comparison can be made.
        case unknown
    }

    public var key: String
    /// Energy, joules.
    public var values: [Double?]
    public var presence: [Presence]
    public var changes: [Change?]
    public var status: [Status]
}

/// One finding key across the runs.
public struct FindingRow: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        case reference, new, worse, resolved, better, unchanged
        /// In neither the reference nor this run.
        case absent
    }

    public var key: String
    public var rule: String
    public var title: String
    /// The highest severity of the key's findings in each run, `nil` where it has none.
    public var severity: [String?]
    /// Their attributed energy, joules, where any.
    public var energyJ: [Double?]
    public var status: [Status]

    enum CodingKeys: String, CodingKey {
        case energyJ = "energy_j"
        case key, rule, severity, status, title
    }
}

/// The runs' timelines on one axis: each re-binned to one common width, placed at its
/// alignment offset.
public struct ComparedTimeline: Codable, Sendable, Equatable {
    /// The common bin width: the least common multiple of the runs' widths (or `--bin`).
    public var binS: Double
    public var categories: [String]
    public var runs: [RunTimeline]
    /// Each compared run's total energy minus the reference's, per bin of the reference's
    /// grid (index 0 is the reference and empty).
    public var difference: [[Double]]

    enum CodingKeys: String, CodingKey {
        case binS = "bin_s"
        case categories, difference, runs
    }
}

/// One run's timeline on the common axis: aligned time = run time − anchor.
public struct RunTimeline: Codable, Sendable, Equatable {
    /// Aligned time of the start of bin 0 (minus the anchor's time).
    public var offsetS: Double
    /// `energy_j[bin][category]` at the common width.
    public var energyJ: [[Double]]
    public var memoryPeakBytes: [Double?]
    /// Lifecycle changes, in aligned time.
    public var lifecycle: [AlignedEvent]
    /// Marks, in aligned time.
    public var marks: [AlignedEvent]
    /// Radio state segments, in aligned time.
    public var radio: [AlignedSpan]

    enum CodingKeys: String, CodingKey {
        case energyJ = "energy_j"
        case lifecycle, marks
        case memoryPeakBytes = "memory_peak_bytes"
        case offsetS = "offset_s"
        case radio
    }
}

/// A named instant in aligned time.
public struct AlignedEvent: Codable, Sendable, Equatable {
    public var timeS: Double
    public var name: String

    enum CodingKeys: String, CodingKey {
        case name
        case timeS = "time_s"
    }
}

/// A radio state segment in aligned time.
public struct AlignedSpan: Codable, Sendable, Equatable {
    public var link: String
    public var state: String
    public var startS: Double
    public var endS: Double

    enum CodingKeys: String, CodingKey {
        case endS = "end_s"
        case link
        case startS = "start_s"
        case state
    }
}
