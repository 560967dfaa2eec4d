import ArgumentParser
import DrainPipeline
import DrainRender
import DrainReport

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a run as a Chrome trace to open in the Perfetto UI or chrome://tracing.",
        discussion: """
            The inputs are read, lined up and priced as 'drain analyze' does. The trace shows each \
            thread's CPU and GPU slices, marks, every other event as an instant with its fields, \
            memory as a counter, the power and cumulative energy of each category, and the \
            radio's states.

            Examples:
              drain export --chrome run.json app.jsonl
              drain export --chrome run.json phone.pcapng app.jsonl --link cellular
              drain export --chrome - app.jsonl | gzip > run.json.gz
            """
    )

    @Option(help: ArgumentHelp("Write Chrome Trace Event JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var chrome: String

    @Argument(help: ArgumentHelp("Input files: Drain traces (.jsonl), pcap or pcapng captures, strace output, Chrome traces.", valueName: "INPUT"))
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
    }

    func run() throws {
        let options = AnalysisOptions(
            inputs: inputs, model: model, binSeconds: bin, capture: capture.options,
            progress: Console.standardErrorIsTerminal ? { Console.progressMeter(for: $0) } : nil)
        let text: String
        do {
            text = try ChromeTraceExport.render(options)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        guard chrome != "-" else {
            Console.standardOutput(text)
            return
        }
        do {
            try ReportWriter.write(text, to: chrome)
        } catch {
            Console.error(String(describing: error))
            throw ExitCode(OutputError.write(error).exitCode)
        }
    }
}
