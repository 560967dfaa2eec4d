import DrainImport
import DrainReport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command gets its report: a report JSON saved earlier, or inputs analysed now.
/// `analyze`, `export`, `gate` and `compare` all get their reports through it, so everything
/// downstream reads a `Report` and never cares which.
public enum ReportSource {
    /// A report JSON written by `drain analyze --json` (or a gate baseline's run).
    case saved(path: String)
    /// Raw inputs of one run, analysed as `drain analyze` does.
    case inputs(AnalysisOptions)

    /// The source for `options.inputs`: a saved report when the only input is one, else the
    /// inputs. A saved report cannot be mixed with other inputs, nor re-priced or re-judged:
    /// analysis options other than the report's own model are a usage error.
    ///
    /// - Throws: `AnalysisError.usage` for those misuses; `.input` when an input cannot be read.
    public static func resolve(_ options: AnalysisOptions) throws(AnalysisError) -> ReportSource {
        let saved = options.inputs.filter(isSavedReport)
        guard !saved.isEmpty else { return .inputs(options) }
        guard options.inputs.count == 1 else {
            throw .usage(
                "\(saved[0]) is a saved report; it cannot be analysed together with other inputs "
                    + "(give the report alone, or the raw inputs of the run)")
        }
        if options.configuration != nil { throw .usage(savedReportConflict("--config")) }
        if options.binSeconds != nil { throw .usage(savedReportConflict("--bin")) }
        if options.gapThresholdS != nil { throw .usage(savedReportConflict("--gap-threshold")) }
        if options.capture.deviceAddress != nil { throw .usage(savedReportConflict("--device-ip")) }
        if options.capture.link != nil { throw .usage(savedReportConflict("--link")) }
        return .saved(path: saved[0])
    }

    /// The report: loaded, or made by a full analysis.
    ///
    /// - Throws: `AnalysisError.report` for a report that cannot be loaded; whatever
    ///   `Analysis.run` throws for inputs. A saved report priced with another model than
    ///   `--model` names is a usage error (a saved report is never re-priced).
    public func report(model requestedModel: String? = nil) throws(AnalysisError) -> Report {
        switch self {
        case let .saved(path):
            let report: Report
            do {
                report = try Report.load(path: (try? StreamInputs.readablePath(for: path)) ?? path)
            } catch {
                var named = error
                named.path = path
                throw .report(named)
            }
            if let requestedModel, requestedModel != report.model.name {
                throw .usage(
                    "\(path) was priced with the model \(report.model.name); a saved report cannot be priced again "
                        + "with \(requestedModel) (analyse the run's inputs instead)")
            }
            return report
        case let .inputs(options):
            return try Analysis.run(options)
        }
    }

    /// The report of one run of a gate or a comparison: `path` is a saved report, loaded as
    /// it was made (the caller compares its model with the others'), or one input, analysed
    /// with `options` (whose `inputs` are replaced by `path`). Analysis options that cannot
    /// apply to a saved report are a usage error, as in `resolve`.
    public static func report(ofRun path: String, options: AnalysisOptions) throws(AnalysisError) -> Report {
        var options = options
        options.inputs = [path]
        switch try resolve(options) {
        case .saved: return try ReportSource.saved(path: path).report()
        case .inputs: return try Analysis.run(options)
        }
    }

    /// The report for `options`: `resolve`, then `report`.
    public static func report(_ options: AnalysisOptions) throws(AnalysisError) -> Report {
        try resolve(options).report(model: options.model)
    }

    private static func savedReportConflict(_ option: String) -> String {
        "\(option) applies to an analysis; a saved report is shown as it was made (analyse the run's inputs to change it)"
    }

    /// How much of a file is read to tell a report from an input.
    static let headLength = 4_096

    /// Whether the file at `path` starts like a Drain report JSON: a JSON object whose head
    /// holds the key `"active_duration_s"` (the first key of every report this version
    /// writes, as keys are sorted) or `"schema_version"` (reports edited by other tools).
    /// An unreadable file is not one; its importer reports why. A stream is judged by its copy
    /// (`StreamInputs`), which the importer or the report loader then reads.
    static func isSavedReport(_ path: String) -> Bool {
        guard let readable = try? StreamInputs.readablePath(for: path) else { return false }
        let descriptor = open(readable, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: headLength)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, headLength) }
        guard count > 0 else { return false }
        let text = String(decoding: head.prefix(count), as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{" else { return false }
        return hasKey("active_duration_s", in: text) || hasKey("schema_version", in: text)
    }

    /// Whether `"key"` followed by optional blanks and a colon occurs in `text`.
    private static func hasKey(_ key: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: "\"\(key)\"") {
            let after = rest[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            if after.first == ":" { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
