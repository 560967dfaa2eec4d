import ArgumentParser
import DrainImport
import DrainPipeline
import DrainRender
import DrainReport

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse traces of one run and report energy, memory and guidance findings.",
        discussion: """
            Several inputs of the same run share one timeline, lined up by wall clock (the \
            start in a trace header, packet time stamps in a capture). Without an output option the terminal summary is printed; \
            with --json - only the JSON report goes to standard output. A report JSON saved \
            earlier can be given instead of the inputs, to render it again in other formats.

            Examples:
              drain analyze app.jsonl
              drain analyze app.jsonl --html report.html --json report.json --csv tables/
              drain analyze app.jsonl --model iphone-wifi --json - | jq .energy
              drain analyze phone.pcapng app.jsonl --link cellular --html report.html
              drain analyze report.json --html report.html

            Input formats (recognised by their first bytes, not their names; gzip-compressed \
            files are read as they are):

            """ + Importers.inputFormatsHelp
    )

    @Argument(help: ArgumentHelp(Importers.inputFilesHelp + " Or one report JSON saved by --json.", valueName: "INPUT"))
    var inputs: [String]

    @OptionGroup var modelOptions: ModelOptions
    @OptionGroup(title: "Captures") var capture: CaptureArguments
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("Width of the timeline bins in seconds (default: automatic).", valueName: "SECONDS"))
    var bin: Double?

    func validate() throws {
        if let bin, !(bin > 0) { throw ValidationError("--bin must be a positive number of seconds") }
    }

    func run() throws {
        let showProgress = !output.quiet && Console.standardErrorIsTerminal
        let options = AnalysisOptions(
            inputs: inputs, model: modelOptions.model, configuration: modelOptions.config, binSeconds: bin,
            capture: capture.options, progress: showProgress ? { Console.progressMeter(for: $0) } : nil)
        let report: Report
        do {
            report = try ReportSource.report(options)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        let outputs = output.outputs
        do {
            if let json = try outputs.write(report) { Console.standardOutput(json) }
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        guard !output.quiet else { return }
        if outputs.writesStandardOutput {
            Console.standardError(TerminalReportRenderer.render(report, color: Console.standardErrorIsTerminal))
        } else {
            Console.standardOutput(TerminalReportRenderer.render(report, color: Console.standardOutputIsTerminal))
        }
    }
}
