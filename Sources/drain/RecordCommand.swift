import ArgumentParser
#if os(Linux)
import DrainRecord
#endif

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a command on Linux and record what its process tree does into a Drain trace.",
        discussion: """
            The command runs with this terminal's standard input, output and error, and \
            'drain record' exits with its exit status (128 + the signal if a signal killed it). \
            Every interval the recorder reads /proc for each process and thread of the command: \
            CPU time, voluntary context switches, bytes written, resident memory, and the \
            network interfaces' traffic. Status goes to standard error. See docs/recorder.md.

            Exit codes of the recorder itself: 64 bad usage, 65 the strace log could not be \
            read, 69 strace missing or the capture failed, 71 a system call failed, 73 the trace \
            or capture could not be written, 77 no permission to capture, 126 the command \
            cannot be run, 127 the command was not found.

            Examples:
              drain record -- ./build.sh
              drain record -o run.jsonl --interval 5ms -- python3 sync.py
              drain record -o run.jsonl --strace --capture eth0 -- curl -s example.com
              drain analyze run.jsonl run.pcap
            """
    )

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The trace to write (default: drain-record-YYYYMMDD-HHMMSS.jsonl).", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Time between samples, 1ms to 10s: 20ms, 0.5s, 1s.", valueName: "DURATION"))
    var interval: String = "20ms"

    @Flag(help: "Run the command under strace and add its waits, sleeps, file writes and socket traffic to the trace.")
    var strace = false

    @Option(
        help: ArgumentHelp("Capture the packets of INTERFACE with libpcap into a pcap beside the trace (needs CAP_NET_RAW).", valueName: "INTERFACE"))
    var capture: String?

    @Flag(name: .shortAndLong, help: "Print no status on standard error.")
    var quiet = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command to run and its arguments, after '--'.", valueName: "COMMAND"))
    var command: [String] = []

    func validate() throws {
        #if os(Linux)
        guard !command.isEmpty else { throw ValidationError("give the command to record after '--': drain record -- COMMAND [ARGUMENTS…]") }
        do {
            _ = try RecordInterval.parse(interval)
        } catch {
            throw ValidationError(error.description)
        }
        #else
        throw ValidationError("drain record samples /proc, so it runs only on Linux")
        #endif
    }

    #if os(Linux)
    func run() throws {
        let quiet = self.quiet
        let outputPath = output ?? RecordOptions.defaultOutputPath()
        let result: RecordResult
        do throws(RecordError) {
            let status: (@Sendable (String) -> Void)? = quiet ? nil : { @Sendable (message: String) -> Void in Console.standardError("drain: " + message) }
            let options = RecordOptions(
                command: command, outputPath: outputPath, interval: try RecordInterval.parse(interval), strace: strace,
                captureInterface: capture, status: status)
            result = try Recorder.run(options)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        if !quiet { Console.standardError("drain: \(result.summary)") }
        throw ExitCode(result.exitStatus)
    }
    #endif
}
