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
        let imported = try importInputs(options)
        let model = try resolveModel(options.model, hints: imported.compactMap(\.info.deviceHint))
        let configuration: RuleConfiguration
        if let path = options.configuration {
            do { configuration = try RuleConfiguration.load(path: path) } catch { throw .configuration(error) }
        } else {
            configuration = RuleConfiguration()
        }
        return assemble(imported, model: model, configuration: configuration, binSeconds: options.binSeconds)
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

    /// Builds the report for inputs that are already imported.
    public static func assemble(
        _ imported: [ImportedInput], model: DeviceModel, configuration: RuleConfiguration = RuleConfiguration(),
        binSeconds: Double? = nil
    ) -> Report {
        var diagnostics = imported.map(\.info.diagnostics)
        let timeline = Timeline.merge(imported.map(\.timeline), diagnostics: &diagnostics)
        let priced = Pricer(model: model).price(timeline)
        let evaluation = RuleEngine(model: model, configuration: configuration).evaluate(priced)
        return ReportAssembler(priced: priced, model: model, binSeconds: binSeconds)
            .report(inputs: imported.map(\.info), diagnostics: diagnostics, evaluation: evaluation)
    }

    /// `--model` if given; else the first input's device hint when it names a built-in
    /// model; else the default model.
    static func resolveModel(_ requested: String?, hints: [String]) throws(AnalysisError) -> DeviceModel {
        let name = requested ?? hints.first(where: { ModelCatalog.builtinNames.contains($0) }) ?? ModelCatalog.defaultName
        do {
            return try ModelCatalog.load(nameOrPath: name)
        } catch {
            throw .model(error)
        }
    }
}

/// The version of this build of Drain.
public enum DrainVersion {
    public static let current = "0.1.0"
}
