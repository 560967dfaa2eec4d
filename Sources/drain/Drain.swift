import ArgumentParser
import DrainHistory
import DrainPipeline

@main
struct Drain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drain",
        abstract: "Energy and memory budget profiler: where does the battery and memory go?",
        discussion: """
            Drain reads what a program did (Drain traces, pcap and pcapng captures, strace \
            output, Chrome traces, MetricKit payloads), prices every action with a device cost \
            model, checks the behaviour against Apple's battery, networking, memory and \
            lifecycle guidance, and writes a report; 'drain gate' judges runs against a budget \
            and a baseline for CI; 'drain history' reads the runs kept with --store.

            Exit codes: 0 success, 64 bad usage, 65 bad input data, 66 unreadable input, \
            69 the run history could not be reached, 73 a report file could not be written. \
            'drain gate' exits 0 or 1 (pass or fail), 64, 65, 66 or 69 only. 'drain record' \
            exits with the recorded command's status; its own codes are in 'drain record --help'.
            """,
        version: DrainVersion.current,
        subcommands: [
            AnalyzeCommand.self, CompareCommand.self, ExportCommand.self, GateCommand.self, HistoryCommand.self, RecordCommand.self,
            ModelsCommand.self,
        ]
    )

    /// `--store` may be given without a value: the arguments are rewritten before parsing.
    /// The heap is set up for one analysis per process before anything starts a thread; then
    /// the model an analysis will most likely use starts loading while the arguments are parsed.
    static func main() {
        ProcessMemory.tuneForOneAnalysis()
        let arguments = StoreArguments.expandingBareStore(Array(CommandLine.arguments.dropFirst()))
        ModelPreload.startEarly(arguments: arguments)
        main(arguments)
    }
}
