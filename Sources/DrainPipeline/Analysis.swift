import DrainAggregate
import DrainImport
import DrainModel
import DrainReport
import DrainRules
import DrainTrace

/// The whole analysis: import every input, merge them onto one clock, price the run with a
/// device model, aggregate, judge it against the guidance rules, and assemble the `Report`.
public enum Analysis {
    /// The generator string written into reports.
    public static let generator = "drain \(DrainVersion.current)"

    /// Runs an analysis. Reads each input once; O(n log n) in events when inputs must be
    /// re-sorted or merged, O(n) otherwise.
    public static func run(_ options: AnalysisOptions) throws(AnalysisError) -> Report {
        let gapThreshold = try options.gapThresholdS.map(gapThreshold(seconds:)) ?? TimeGaps.defaultThreshold
        let preload = ModelPreload.starting(name: options.model ?? ModelCatalog.defaultName)
        defer { preload.finish() }
        let imported = try importInputs(options)
        ProcessMemory.releaseFreed()
        let model = try resolveModel(options.model, hints: imported.compactMap(\.info.deviceHint), preload: preload)
        let configuration: RuleConfiguration
        if let path = options.configuration {
            do { configuration = try RuleConfiguration.load(path: path) } catch { throw .configuration(error) }
        } else {
            configuration = RuleConfiguration()
        }
        return assemble(
            consume imported, model: model, configuration: configuration, binSeconds: options.binSeconds,
            gapThreshold: gapThreshold)
    }

    /// Reads every input of `options`, in order, reporting progress as asked.
    static func importInputs(_ options: AnalysisOptions) throws(AnalysisError) -> [ImportedInput] {
        guard !options.inputs.isEmpty else { throw .usage("no input files given") }
        var imported: [ImportedInput] = []
        for (index, path) in options.inputs.enumerated() {
            let meter = options.progress?(path)
            defer { meter?.finish() }
            do {
                imported.append(
                    try Importers.read(
                        path: path, inputIndex: UInt16(truncatingIfNeeded: index), capture: options.capture,
                        progress: meter?.update))
            } catch {
                throw .input(error)
            }
        }
        return imported
    }

    /// The gap threshold in nanoseconds, refusing one shorter than
    /// `AnalysisOptions.minimumGapThresholdS` (or not a number).
    static func gapThreshold(seconds: Double) throws(AnalysisError) -> Nanoseconds {
        guard seconds.isFinite, seconds >= AnalysisOptions.minimumGapThresholdS, seconds < 1e9 else {
            throw .usage("the gap threshold must be at least \(Int(AnalysisOptions.minimumGapThresholdS)) s, got \(seconds) s")
        }
        return Clock.nanoseconds(seconds)
    }

    /// Builds the report for inputs that are already imported. A stretch without events
    /// longer than `gapThreshold` is a time gap (`TimeGaps`).
    public static func assemble(
        _ imported: consuming [ImportedInput], model: DeviceModel, configuration: RuleConfiguration = RuleConfiguration(),
        binSeconds: Double? = nil, gapThreshold: Nanoseconds = TimeGaps.defaultThreshold
    ) -> Report {
        let inputs = imported.map(\.info)
        var diagnostics = inputs.map(\.diagnostics)
        var timeline = Timeline.merge(imported.map(\.timeline), diagnostics: &diagnostics)
        // The merged timeline shares the inputs' columns; once it is their only holder, what
        // the rules do not read can be given back (`RuleEngine.releaseUnread`).
        imported = []
        timeline.gaps = TimeGaps.detect(in: timeline, threshold: gapThreshold)
        recordGaps(of: timeline, in: &diagnostics)
        let engine = RuleEngine(model: model, configuration: configuration)
        engine.releaseUnread(from: &timeline)
        let priced = Pricer(model: model).price(timeline, grid: BinGrid(chartOf: timeline, binSeconds: binSeconds))
        let assembler = ReportAssembler(priced: priced, model: model, binSeconds: binSeconds)
        let (evaluation, figures) = engine.evaluate(priced, alongside: { assembler.figures() })
        return assembler.report(figures, inputs: inputs, diagnostics: diagnostics, evaluation: evaluation)
    }

    /// One `time-gap` diagnostic per input that has events right after a gap (the last
    /// event's input for a gap at the end), naming each of its gaps.
    static func recordGaps(of timeline: Timeline, in diagnostics: inout [ImportDiagnostics]) {
        guard !timeline.gaps.isEmpty else { return }
        var byInput: [Int: [TimeGap]] = [:]
        for gap in timeline.gaps.gaps {
            let next = timeline.firstRow(atOrAfter: gap.end)
            byInput[Int(timeline.input[min(next, timeline.count - 1)]), default: []].append(gap)
        }
        let threshold = TimeGaps.describe(timeline.gaps.threshold)
        for (input, gaps) in byInput.sorted(by: { $0.key < $1.key }) where input < diagnostics.count {
            let listed = gaps.prefix(gapsNamed).map { gap in
                "\(TimeGaps.describe(gap.length)) from \(Formatting.fixed(Clock.seconds(gap.start), digits: 3)) s "
                    + "to \(Formatting.fixed(Clock.seconds(gap.end), digits: 3)) s"
            }
            let more = gaps.count > gapsNamed ? " and \(gaps.count - gapsNamed) more (the report's time_gaps lists all)" : ""
            diagnostics[input].record(
                .warning, code: "time-gap",
                message: "\(gaps.count) stretch(es) longer than the gap threshold, \(threshold), had no events: "
                    + listed.joined(separator: "; ") + more
                    + "; they split the run into segments and are left out of the active duration, average power and "
                    + "per-hour figures (--gap-threshold sets the threshold)",
                count: gaps.count)
        }
    }

    /// How many gaps a diagnostic names one by one.
    static let gapsNamed = 10

    /// `--model` if given; else the first input's device hint when it names a built-in
    /// model; else the default model.
    static func resolveModel(_ requested: String?, hints: [String], preload: ModelPreload? = nil) throws(AnalysisError) -> DeviceModel {
        let name = requested ?? hints.first(where: { ModelCatalog.builtinNames.contains($0) }) ?? ModelCatalog.defaultName
        let loaded = preload?.model(named: name) ?? Result { () throws(ModelError) in try ModelCatalog.load(nameOrPath: name) }
        switch loaded {
        case let .success(model): return model
        case let .failure(error): throw .model(error)
        }
    }
}

/// The version of this build of Drain.
public enum DrainVersion {
    public static let current = "0.1.0"
}
