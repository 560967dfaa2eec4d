import ArgumentParser
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
            and a baseline for CI.

            Exit codes: 0 success, 64 bad usage, 65 bad input data, 66 unreadable input, \
            73 a report file could not be written. 'drain gate' exits 0 or 1 (pass or fail), \
            64, 65 or 66 only. 'drain record' exits with the recorded command's status; its own \
            codes are in 'drain record --help'.
            """,
        version: DrainVersion.current,
        subcommands: [AnalyzeCommand.self, CompareCommand.self, ExportCommand.self, GateCommand.self, RecordCommand.self, ModelsCommand.self]
    )
}
