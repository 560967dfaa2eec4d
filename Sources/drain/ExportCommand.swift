import ArgumentParser
import DrainImport
import DrainPipeline
import DrainRender
import DrainReport

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a run as a Chrome trace (Perfetto UI, chrome://tracing) or as one Drain trace.",
        discussion: """
            The inputs are read, lined up and priced as 'drain analyze' does. The Chrome trace \
            shows each thread's CPU and GPU slices, marks, every other event as an instant with \
            its fields, memory as a counter, the power and cumulative energy of each category, \
            and the radio's states. The Drain trace holds every event of the merged inputs in \
            one file that 'drain analyze' reads back as the same run.

            A report JSON saved by 'drain analyze --json' can be given instead of the inputs: \
            its Chrome trace shows what the report holds (energy counters from its timeline, \
            memory peaks, radio states, lifecycle changes and findings); it has no events, so \
            it cannot be written as a Drain trace.

            Examples:
              drain export --chrome run.json app.jsonl
              drain export --chrome run.json phone.pcapng app.jsonl --link cellular
              drain export --drain-trace merged.jsonl phone.pcapng app.jsonl
              drain export --chrome run.json report.json
              drain export --chrome - app.jsonl | gzip > run.json.gz
            """
    )

    @Option(help: ArgumentHelp("Write Chrome Trace Event JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var chrome: String?

    @Option(
        name: .customLong("drain-trace"),
        help: ArgumentHelp("Write the merged run as one Drain trace (JSON Lines) to FILE ('-' for standard output).", valueName: "FILE"))
    var drainTrace: String?

    @Argument(help: ArgumentHelp(Importers.inputFilesHelp + " Or one report JSON saved by --json.", valueName: "INPUT"))
    var inputs: [String]

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Device model that prices the run: a built-in name (see 'drain models list') or a model YAML file. Default: the trace's device hint, else iphone-lte.",
            valueName: "NAME|FILE"))
    var model: String?

    @OptionGroup(title: "Captures") var capture: CaptureArguments

    @Option(name: .long, help: ArgumentHelp("Width of the energy counters' bins in seconds (default: automatic).", valueName: "SECONDS"))
    var bin: Double?

    func validate() throws {
        if let bin, !(bin > 0) { throw ValidationError("--bin must be a positive number of seconds") }
        guard chrome != nil || drainTrace != nil else { throw ValidationError("give --chrome FILE, --drain-trace FILE or both") }
        if chrome == "-", drainTrace == "-" { throw ValidationError("only one of --chrome and --drain-trace can write to standard output") }
    }

    func run() throws {
        let options = AnalysisOptions(
            inputs: inputs, model: model, binSeconds: bin, capture: capture.options,
            progress: Console.standardErrorIsTerminal ? { Console.progressMeter(for: $0) } : nil)
        var outputs: [(path: String, text: String)] = []
        do throws(AnalysisError) {
            switch try ReportSource.resolve(options) {
            case let .saved(path):
                guard drainTrace == nil else {
                    throw .usage(
                        "\(path) is a saved report: it holds no events, so it cannot be written as a Drain trace (export the run's inputs)")
                }
                let report = try ReportSource.saved(path: path).report(model: model)
                if let chrome { outputs.append((chrome, ChromeTraceExport.render(report: report))) }
            case .inputs:
                if let chrome { outputs.append((chrome, try ChromeTraceExport.render(options))) }
                if let drainTrace { outputs.append((drainTrace, try DrainTraceExport.render(options))) }
            }
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        for output in outputs {
            guard output.path != "-" else {
                Console.standardOutput(output.text)
                continue
            }
            do {
                try ReportWriter.write(output.text, to: output.path)
            } catch {
                Console.error(String(describing: error))
                throw ExitCode(OutputError.write(error).exitCode)
            }
        }
    }
}
