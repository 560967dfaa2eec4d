import DrainImport
import DrainTrace
import DrainTraceWriter

/// `drain export --drain-trace`: a run's inputs — captures, traces, strace logs, Chrome
/// traces — merged into one Drain trace (docs/trace-format.md) that `drain analyze` reads
/// back as the same run.
public enum DrainTraceExport {
    /// Imports and merges the inputs of `options` as `Analysis.run` does and renders the
    /// merged timeline.
    ///
    /// - Throws: `AnalysisError` as `Analysis.run` does.
    public static func render(_ options: AnalysisOptions) throws(AnalysisError) -> String {
        let imported = try Analysis.importInputs(options)
        var diagnostics = imported.map(\.info.diagnostics)
        let timeline = Timeline.merge(imported.map(\.timeline), diagnostics: &diagnostics)
        return render(timeline, process: imported.first?.info.process, device: imported.lazy.compactMap(\.info.deviceHint).first)
    }

    /// Renders `timeline` as a Drain trace: a header with `process`, `device` (the device
    /// model hint, so that the trace prices with the model the inputs asked for) and the
    /// wall-clock start, then every event in time order.
    ///
    /// What the format cannot hold is not written: events of a type the reader did not
    /// know, the duration of a coalesced run of packets, and what a capture adds besides
    /// its events (flows, HTTP messages) or MetricKit its aggregates. O(events + string bytes).
    public static func render(_ timeline: Timeline, process: String?, device: String?) -> String {
        var line = JSONLine(capacity: 96 * (timeline.count + 2))
        line.traceHeader(process: process, pid: nil, device: device, startNanosecondsSinceEpoch: timeline.wallClockStart)
        for row in 0..<timeline.count {
            TimelineTraceWriter.append(timeline[row], at: timeline.time[row], strings: timeline.strings, to: &line)
        }
        return String(decoding: line.bytes, as: UTF8.self)
    }
}
