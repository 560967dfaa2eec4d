import DrainImport
import DrainReport
import DrainTrace

/// Renders a saved report as Chrome Trace Event JSON. A report holds no events, so the trace
/// shows what the report does hold, on the same tracks and names as the export of a run:
///
/// - `power (mW)` and `energy (J)` counters from the report's timeline bins (category
///   `drain.priced`);
/// - a `memory` counter with each bin's highest footprint (`peak_footprint`), at the bin's start;
/// - each radio's non-idle states from the report's radio lane, as slices on `radio (LINK)`;
/// - lifecycle changes as process-wide instants (`lifecycle: STATE`, `drain.lifecycle`);
/// - findings as slices over their time ranges on a `findings` track (`drain.finding`),
///   named `RULE-ID: title`, with severity, key, message and attributed energy as `args`.
///
/// Every string from the report is escaped as JSON. The same report gives the same bytes;
/// O(bins + lane + findings).
struct ReportChromeTraceWriter {
    let report: Report

    private static let pid = ChromeEventWriter.pid
    private static let radioTids = 2
    private var findingsTid: Int { Self.radioTids + radioLinks.count }
    private var radioLinks: [String] {
        var links: [String] = []
        for segment in report.radio.lane where !links.contains(segment.link) { links.append(segment.link) }
        return links
    }

    func render() -> String {
        var output = ChromeEventWriter(otherData: [
            ("generator", report.generator), ("model", report.model.name), ("source", "report"),
        ])
        output.reserveCapacity(200 * (report.timeline.energyJ.count * 3 + report.radio.lane.count + report.findings.count + 16))
        writeEnergy(into: &output)
        writeMemory(into: &output)
        writeRadio(into: &output)
        writeLifecycle(into: &output)
        writeFindings(into: &output)
        output.processName(report.inputs.lazy.compactMap(\.process).first ?? "drain")
        output.threadName("main", tid: Self.pid)
        for (index, link) in radioLinks.enumerated() { output.threadName("radio (\(link))", tid: Self.radioTids + index) }
        if !report.findings.isEmpty { output.threadName("findings", tid: findingsTid) }
        return output.finish()
    }

    private var binWidth: Nanoseconds { max(1, Clock.nanoseconds(report.timeline.binS)) }
    private var end: Nanoseconds { Clock.nanoseconds(report.durationS) }

    /// Where a bin starts: after the gaps before it, in a run with time gaps.
    private func binStart(_ bin: Int) -> Nanoseconds {
        report.timeline.segments == nil ? Nanoseconds(bin) * binWidth : Clock.nanoseconds(report.timeline.startS(ofBin: bin))
    }

    private func writeEnergy(into output: inout ChromeEventWriter) {
        let bins = report.timeline.energyJ
        ChromeEnergyCounters(
            categories: report.timeline.categories, binCount: bins.count, binWidth: binWidth, end: end,
            joules: { bin, category in category < bins[bin].count ? bins[bin][category] : 0 },
            start: binStart
        ).write(into: &output)
    }

    private func writeMemory(into output: inout ChromeEventWriter) {
        for (bin, peak) in report.timeline.memoryPeakBytes.enumerated() {
            guard let peak else { continue }
            output.counter(name: "memory", category: "drain.memory", time: binStart(bin)) {
                $0.number("peak_footprint", peak)
            }
        }
    }

    private func writeRadio(into output: inout ChromeEventWriter) {
        let links = radioLinks
        for segment in report.radio.lane where segment.endS > segment.startS {
            let start = Clock.nanoseconds(segment.startS)
            output.slice(
                name: segment.state, category: ChromeTraceCategory.priced, start: start,
                duration: Clock.nanoseconds(segment.endS) - start, tid: Self.radioTids + (links.firstIndex(of: segment.link) ?? 0))
        }
    }

    private func writeLifecycle(into output: inout ChromeEventWriter) {
        for mark in report.timeline.lifecycle {
            output.instant(
                name: "lifecycle: \(mark.state)", category: "drain.lifecycle", time: Clock.nanoseconds(mark.timeS), tid: Self.pid,
                scope: .process)
        }
    }

    private func writeFindings(into output: inout ChromeEventWriter) {
        for finding in report.findings {
            let ranges = finding.timeRanges.isEmpty ? [TimeRange(startS: 0, endS: report.durationS)] : finding.timeRanges
            for range in ranges {
                let start = Clock.nanoseconds(range.startS)
                output.slice(
                    name: "\(finding.rule): \(finding.title)", category: "drain.finding", start: start,
                    duration: max(0, Clock.nanoseconds(range.endS) - start), tid: findingsTid
                ) { arguments in
                    arguments.string("severity", finding.severity.rawValue)
                    arguments.string("key", finding.key)
                    arguments.string("message", finding.message)
                    if let energy = finding.energyJ { arguments.number("energy_j", energy) }
                }
            }
        }
    }
}
