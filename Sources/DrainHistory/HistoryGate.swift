import DrainGate
import DrainPipeline

/// What `drain gate --store` adds to a gate: where runs are recorded and whether the
/// baseline comes from the history.
public struct HistoryGateRequest: Sendable {
    public var store: StoreLocation
    /// The scenario runs are recorded under and baselines are taken from.
    public var scenario: String
    /// Take the baseline from this branch's runs at the merge base (`--base-branch`).
    public var baseBranch: String?
    /// Fail when the history holds no baseline (`--require-baseline`).
    public var requireBaseline: Bool
    /// Record the runs; without, the store is only read (`--no-record`: a read-only
    /// database user is enough).
    public var record: Bool
    /// Who and where the candidate runs are.
    public var provenance: RunProvenance
    public var git: GitWorkTree

    public init(
        store: StoreLocation, scenario: String, baseBranch: String?, requireBaseline: Bool, record: Bool = true,
        provenance: RunProvenance, git: GitWorkTree = GitWorkTree()
    ) {
        self.record = record
        self.store = store
        self.scenario = scenario
        self.baseBranch = baseBranch
        self.requireBaseline = requireBaseline
        self.provenance = provenance
        self.git = git
    }
}

/// Why a command that uses the run history could not go on: the gate's or the analysis's
/// own errors, or the store's (exit 69 when it could not be reached).
public enum HistoryError: Error, Sendable, CustomStringConvertible {
    case gate(GateError)
    case analysis(AnalysisError)
    case store(StoreError)

    public var exitCode: Int32 {
        switch self {
        case let .gate(error): error.exitCode
        case let .analysis(error): error.exitCode
        case let .store(error): error.exitCode
        }
    }

    public var description: String {
        switch self {
        case let .gate(error): error.description
        case let .analysis(error): error.description
        case let .store(error): error.description
        }
    }
}

/// `drain gate` with a run history: the store is opened first (an unreachable store fails
/// before any analysis), the baseline taken from the base branch's runs, the runs judged,
/// then each run recorded in its own transaction (unless `record` is off).
public enum HistoryGate {
    public static func run(_ request: GateRequest, history: HistoryGateRequest, generator: String, host: HostInfo?)
        async throws(HistoryError) -> (verdict: GateVerdict, baseline: Baseline?, recorded: [RecordedRun])
    {
        guard history.baseBranch == nil || request.baselinePaths.isEmpty else {
            throw .gate(.usage("give --baseline FILE or --base-branch BRANCH, not both"))
        }
        let store: RunStore
        do { store = try await RunStore.open(history.store, access: history.record ? .write : .read) } catch { throw .store(error) }
        do throws(HistoryError) {
            let prepared: PreparedGate
            do { prepared = try GateRunner.prepare(request, generator: generator) } catch { throw HistoryError.gate(error) }
            var baseline = prepared.baseline
            var source: String?
            var missing = false
            if let baseBranch = history.baseBranch {
                let found = try await findBaseline(store, history: history, model: prepared.model, baseBranch: baseBranch)
                baseline = found.baseline
                source = found.summary
                missing = found.baseline == nil
            }
            var result = GateRunner.judge(prepared, request: request, baseline: baseline, generator: generator, host: host)
            result.verdict.baselineSource = source
            if missing && history.requireBaseline { result.verdict.requireBaseline(found: source ?? "no baseline") }
            var recorded: [RecordedRun] = []
            for report in prepared.reports where history.record {
                do {
                    recorded.append(try await store.record(report, scenario: history.scenario, provenance: history.provenance))
                } catch {
                    throw HistoryError.store(error)
                }
            }
            await store.close()
            return (result.verdict, result.baseline, recorded)
        } catch {
            await store.close()
            throw error
        }
    }

    private static func findBaseline(_ store: RunStore, history: HistoryGateRequest, model: String, baseBranch: String)
        async throws(HistoryError) -> HistoryBaseline
    {
        do {
            return try await BaselineFinder.find(
                in: store, project: history.provenance.project, scenario: history.scenario, model: model, baseBranch: baseBranch,
                git: history.git)
        } catch {
            throw .store(error)
        }
    }
}
