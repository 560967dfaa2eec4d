import DrainAggregate
import DrainImport
import DrainModel
import DrainReport
import DrainTrace

/// `drain export --chrome`: a run as Chrome Trace Event JSON, to open in the Perfetto UI
/// (ui.perfetto.dev) or chrome://tracing. docs/chrome-trace.md describes the tracks.
public enum ChromeTraceExport {
    /// Imports and merges the inputs of `options` and prices the run with its device model,
    /// as `Analysis.run` does (rules are not run), and renders it.
    ///
    /// - Throws: `AnalysisError` as `Analysis.run` does.
    public static func render(_ options: AnalysisOptions) throws(AnalysisError) -> String {
        let gapThreshold = try options.gapThresholdS.map(Analysis.gapThreshold(seconds:)) ?? TimeGaps.defaultThreshold
        let imported = try Analysis.importInputs(options)
        let model = try Analysis.resolveModel(options.model, hints: imported.compactMap(\.info.deviceHint))
        var diagnostics = imported.map(\.info.diagnostics)
        var timeline = Timeline.merge(imported.map(\.timeline), diagnostics: &diagnostics)
        // Priced as the analysis prices it: nothing is charged for a time gap.
        timeline.gaps = TimeGaps.detect(in: timeline, threshold: gapThreshold)
        let grid = BinGrid(
            segments: [(0, timeline.end)],
            width: max(1, Clock.nanoseconds(options.binSeconds ?? BinGrid.width(forSegments: [Clock.seconds(timeline.end)]))))
        let priced = Pricer(model: model).price(timeline, grid: grid)
        return render(priced, model: model.name, process: imported.first?.info.process)
    }

    /// Renders a saved report (`ReportChromeTraceWriter`): its timeline bins, radio lane,
    /// lifecycle changes and findings, as a report holds no events.
    public static func render(report: Report) -> String {
        ReportChromeTraceWriter(report: report).render()
    }

    /// Renders a priced run; the energy counters are its cost bins (`PricedTimeline.costs`),
    /// which should be one segment from time zero, as `render(_ options:)` prices them.
    public static func render(_ priced: PricedTimeline, model: String, process: String?) -> String {
        ChromeTraceWriter(priced: priced, process: process, generator: Analysis.generator, model: model).render()
    }
}
