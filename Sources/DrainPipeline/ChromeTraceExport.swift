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
        let priced = Pricer(model: model).price(timeline, grid: grid(for: timeline, binSeconds: options.binSeconds))
        return render(priced, model: model, process: imported.first?.info.process)
    }

    /// The grid the energy counters are binned on: one segment from time zero, gaps or not (a
    /// Chrome trace has one time axis), in bins `binSeconds` wide or of the width the report's
    /// timeline would pick for a run that long.
    public static func grid(for timeline: Timeline, binSeconds: Double? = nil) -> BinGrid {
        let seconds = binSeconds ?? BinGrid.width(forSegments: [Clock.seconds(timeline.end)])
        return BinGrid(segments: [(0, timeline.end)], width: max(1, Clock.nanoseconds(seconds)))
    }

    /// Renders a saved report (`ReportChromeTraceWriter`): its timeline bins, radio lane,
    /// lifecycle changes and findings, as a report holds no events.
    public static func render(report: Report) -> String {
        ReportChromeTraceWriter(report: report).render()
    }

    /// Renders a priced run; the energy counters are its cost bins (`PricedTimeline.costs`).
    ///
    /// - Precondition: the run was priced on one segment from time zero (`grid(for:binSeconds:)`).
    public static func render(_ priced: PricedTimeline, model: DeviceModel, process: String?) -> String {
        let starts = priced.costs.grid.segmentStarts
        precondition(starts.count == 1 && starts[0].start == 0, "Chrome counters are binned on one segment from zero")
        return ChromeTraceWriter(priced: priced, process: process, generator: Analysis.generator, model: model).render()
    }
}
