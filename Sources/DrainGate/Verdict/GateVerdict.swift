/// Everything a gate decided, as `--json` writes it (`docs/gate.md#json`): versioned and
/// deterministic, so the same runs, baseline and budget give the same bytes.
public struct GateVerdict: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public enum Outcome: String, Codable, Sendable {
        case pass, fail
    }

    public var gateVersion: Int
    public var generator: String
    public var scenario: String?
    public var model: String
    /// How many candidate runs were judged.
    public var runs: Int
    /// How many baseline runs, when there is a baseline.
    public var baselineRuns: Int?
    /// Where the baseline came from.
    public var baselineGit: GitRevision?
    public var baselineHost: HostInfo?
    /// How a baseline from the run history was chosen, or why there was none
    /// (`drain gate --store --base-branch`).
    public var baselineSource: String?
    /// Things the reader must know: a baseline from another machine, too few runs for
    /// significance, checks that could not be made.
    public var warnings: [String]
    /// Failures first, then warnings, inconclusive results, improvements, passes, skips.
    public var checks: [GateCheck]
    public var outcome: Outcome
    /// 0 or 1.
    public var exitCode: Int32

    enum CodingKeys: String, CodingKey {
        case baselineGit = "baseline_git"
        case baselineHost = "baseline_host"
        case baselineRuns = "baseline_runs"
        case baselineSource = "baseline_source"
        case checks
        case exitCode = "exit_code"
        case gateVersion = "gate_version"
        case generator, model, outcome, runs, scenario, warnings
    }

    /// Fails the verdict for want of a baseline (`--require-baseline`), with a failing
    /// check first so that every output says why.
    public mutating func requireBaseline(found: String) {
        let check = GateCheck(
            id: "baseline:required", kind: .baseline, subject: "baseline", status: .fail, expected: "baseline runs in the history",
            found: found, unit: "", value: nil, runs: [], regression: nil, energyImpactJ: 0,
            note: "--require-baseline: record runs of the base branch first (drain gate --store on the base branch)")
        checks.insert(check, at: 0)
        outcome = .fail
        exitCode = 1
    }

    /// The checks of `status`, in order.
    public func checks(_ status: GateCheck.Status) -> [GateCheck] {
        checks.filter { $0.status == status }
    }
}
