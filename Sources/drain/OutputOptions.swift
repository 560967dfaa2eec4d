import ArgumentParser
import DrainPipeline

/// Where the report goes.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Write the JSON report to FILE ('-' for standard output).", valueName: "FILE"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp("Write CSV tables (summary, findings, timeline, …) into DIR.", valueName: "DIR"))
    var csv: String?

    @Option(name: .long, help: ArgumentHelp("Write the self-contained interactive HTML report to FILE.", valueName: "FILE"))
    var html: String?

    @Option(name: .long, help: ArgumentHelp("Write a Markdown report to FILE (for CI summaries).", valueName: "FILE"))
    var markdown: String?

    @Flag(name: .shortAndLong, help: "Do not print the terminal summary or progress.")
    var quiet = false

    var outputs: ReportOutputs {
        ReportOutputs(json: json, csvDirectory: csv, html: html, markdown: markdown)
    }
}
