import ArgumentParser
import DrainRender

/// Where the report goes: one option per file renderer of `ReportRenderers.all`, named by the
/// renderer's identifier and described by its help text.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .customLong(JSONReportRenderer.identifier),
        help: ArgumentHelp(ReportRenderers.optionHelp(JSONReportRenderer.self), valueName: ReportRenderers.valueName(JSONReportRenderer.self)))
    var json: String?

    @Option(
        name: .customLong(CSVReportRenderer.identifier),
        help: ArgumentHelp(ReportRenderers.optionHelp(CSVReportRenderer.self), valueName: ReportRenderers.valueName(CSVReportRenderer.self)))
    var csv: String?

    @Option(
        name: .customLong(HTMLReportRenderer.identifier),
        help: ArgumentHelp(ReportRenderers.optionHelp(HTMLReportRenderer.self), valueName: ReportRenderers.valueName(HTMLReportRenderer.self)))
    var html: String?

    @Option(
        name: .customLong(MarkdownReportRenderer.identifier),
        help: ArgumentHelp(
            ReportRenderers.optionHelp(MarkdownReportRenderer.self), valueName: ReportRenderers.valueName(MarkdownReportRenderer.self)))
    var markdown: String?

    @Flag(name: .shortAndLong, help: "Do not print the terminal summary or progress.")
    var quiet = false

    /// The path given for each file renderer, by identifier.
    var paths: [String: String?] {
        [
            JSONReportRenderer.identifier: json, CSVReportRenderer.identifier: csv, HTMLReportRenderer.identifier: html,
            MarkdownReportRenderer.identifier: markdown,
        ]
    }

    var outputs: ReportOutputs { ReportOutputs(paths: paths) }
}
