import DrainImport
import DrainModel
import DrainPipeline
import DrainReport

/// What `drain gate` was asked to do.
public struct GateRequest {
    /// Each one run of the scenario: a report JSON, or one input file to analyse.
    public var runs: [String]
    public var budgetPath: String?
    public var baselinePaths: [String]
    public var saveBaselinePath: String?
    public var scenario: String?
    /// `--model`: prices runs given as inputs, and pins the model.
    public var model: String?
    public var failOnInconclusive: Bool
    /// How captures among the runs are read.
    public var capture: CaptureOptions

    public init(
        runs: [String], budgetPath: String? = nil, baselinePaths: [String] = [], saveBaselinePath: String? = nil,
        scenario: String? = nil, model: String? = nil, failOnInconclusive: Bool = false, capture: CaptureOptions = CaptureOptions()
    ) {
        self.runs = runs
        self.budgetPath = budgetPath
        self.baselinePaths = baselinePaths
        self.saveBaselinePath = saveBaselinePath
        self.scenario = scenario
        self.model = model
        self.failOnInconclusive = failOnInconclusive
        self.capture = capture
    }
}

/// What a gate has loaded before it judges: the budget, every run's report, the model the
/// gate is pinned to, and the baseline of `--baseline` files.
public struct PreparedGate: Sendable {
    public var budget: Budget?
    public var reports: [Report]
    /// The budget's `model`, else `--model`'s, else the first run's.
    public var model: String
    /// Where `model` came from, for messages.
    public var modelSource: String
    public var baseline: Baseline?
}

/// Loads what a gate needs — the budget, the runs, the baseline —, checks that they fit
/// together, and judges.
public enum GateRunner {
    /// The verdict, and the baseline of these runs when `--save-baseline` asked for one.
    ///
    /// - Throws: `GateError`: usage (no run; neither a budget, a baseline nor a baseline to
    ///   save), a bad budget, run or baseline, or a run or baseline priced with another model
    ///   than the pinned one (the budget's `model`, else `--model`, else the first run's).
    public static func run(_ request: GateRequest, generator: String, host: HostInfo? = .current) throws(GateError)
        -> (verdict: GateVerdict, baseline: Baseline?)
    {
        guard request.budgetPath != nil || !request.baselinePaths.isEmpty || request.saveBaselinePath != nil else {
            throw .usage("give --budget FILE, --baseline FILE or both (or --save-baseline FILE to record a baseline)")
        }
        let prepared = try prepare(request, generator: generator)
        return judge(prepared, request: request, baseline: prepared.baseline, generator: generator, host: host)
    }

    /// Loads the budget, the runs and the `--baseline` files, and checks that every run and
    /// the baseline were priced with the pinned model.
    public static func prepare(_ request: GateRequest, generator: String) throws(GateError) -> PreparedGate {
        guard !request.runs.isEmpty else { throw .usage("give at least one run (a report JSON or an input file)") }
        let budget: Budget?
        do { budget = try request.budgetPath.map(Budget.load) } catch { throw .budget(error) }
        let requestedModel = try modelName(request.model)
        let reports = try loadRuns(request)
        let pinned = budget?.model ?? requestedModel ?? reports[0].model.name
        let pinSource = budget?.model != nil ? "the budget's model" : (requestedModel != nil ? "--model" : "the first run's model")
        for (path, report) in zip(request.runs, reports) where report.model.name != pinned {
            throw .modelMismatch("\(path) was priced with the model \(report.model.name), but the gate is pinned to \(pinned) (\(pinSource))")
        }
        var baseline: Baseline?
        if !request.baselinePaths.isEmpty {
            let loaded = try Baseline.load(paths: request.baselinePaths, generator: generator)
            guard loaded.model == pinned else {
                throw .modelMismatch(
                    "the baseline was priced with the model \(loaded.model), but the gate is pinned to \(pinned) (\(pinSource)): compare runs of one model")
            }
            baseline = loaded
        }
        return PreparedGate(budget: budget, reports: reports, model: pinned, modelSource: pinSource, baseline: baseline)
    }

    /// Judges the prepared runs against their budget and `baseline`; with
    /// `--save-baseline`, also returns the runs as a baseline.
    public static func judge(_ prepared: PreparedGate, request: GateRequest, baseline: Baseline?, generator: String, host: HostInfo?)
        -> (verdict: GateVerdict, baseline: Baseline?)
    {
        let options = GateOptions(scenario: request.scenario, failOnInconclusive: request.failOnInconclusive, generator: generator, host: host)
        let verdict = Gate.evaluate(prepared.reports, budget: prepared.budget, baseline: baseline, options: options)
        let saved = request.saveBaselinePath.map { _ in
            Baseline(reports: prepared.reports, generator: generator, scenario: request.scenario, git: GitRevision.current(), host: host)
        }
        return (verdict, saved)
    }

    /// The model name `--model` stands for (a built-in name, or a model file's `name`).
    private static func modelName(_ requested: String?) throws(GateError) -> String? {
        guard let requested else { return nil }
        do {
            return try ModelCatalog.load(nameOrPath: requested).name
        } catch {
            throw .run(.model(error))
        }
    }

    /// Each run's report: loaded when it is a saved report, else analysed (with `--model`).
    private static func loadRuns(_ request: GateRequest) throws(GateError) -> [Report] {
        let options = AnalysisOptions(inputs: [], model: request.model, capture: request.capture)
        var reports: [Report] = []
        for path in request.runs {
            do { reports.append(try ReportSource.report(ofRun: path, options: options)) } catch { throw .run(error) }
        }
        return reports
    }
}
