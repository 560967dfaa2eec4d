#if os(Linux)
import DrainImport
import DrainTrace
import DrainTraceWriter

/// Runs a command and records it into a Drain trace: samples of its process tree from
/// `/proc`, optionally its system calls (strace) and the packets of one interface (libpcap).
public enum Recorder {
    /// The sample lines are written out when this many bytes have gathered.
    static let flushBytes = 64 * 1024

    /// Records `options.command` until it exits and writes the trace (and capture).
    ///
    /// The command inherits standard input, output and error; the recorder writes nothing
    /// to them itself (status goes to `options.status`). Files are written under temporary
    /// names and renamed when complete.
    ///
    /// - Returns: the command's exit status and what was written.
    /// - Throws: `RecordError`: before the command starts for bad usage, a missing strace,
    ///   a capture that cannot start, a command that cannot be run or an output that cannot
    ///   be created; after it ran when the trace cannot be written.
    public static func run(_ options: RecordOptions) throws(RecordError) -> RecordResult {
        guard !options.command.isEmpty else {
            throw .usage("no command to record: drain record [OPTIONS] -- COMMAND [ARGUMENTS…]")
        }
        guard options.interval >= RecordInterval.minimum, options.interval <= RecordInterval.maximum else {
            throw .usage("the interval must be between 1ms and 10s")
        }
        let strace = options.strace ? try StraceLauncher.locate() : nil
        var scratch: [OutputFile] = []
        var capture: PacketCapture?
        defer { for file in scratch { file.discard() } }
        do {
            let samples = try OutputFile(path: options.outputPath)
            scratch.append(samples)
            var arguments = options.command
            var straceLog: OutputFile?
            if let strace {
                let log = try OutputFile(path: options.outputPath + ".strace")
                scratch.append(log)
                straceLog = log
                arguments = StraceLauncher.arguments(strace: strace, log: log.temporaryPath, command: options.command)
            }
            if let interface = options.captureInterface {
                capture = try PacketCapture(interface: interface, path: options.capturePath)
                try capture?.start()
            }
            options.status?("recording \(describe(options.command)) every \(describe(interval: options.interval)) into \(options.outputPath)")
            let signals = SampledSignals.recorded(strace: strace != nil, capture: options.captureInterface != nil)
            let run = try sample(
                arguments, interval: options.interval, excludingRoot: strace != nil, mapping: SampleMapping(signals: signals),
                into: samples)
            var packets = PacketCapture.Statistics(received: 0, dropped: 0)
            if let finishing = capture {
                capture = nil
                packets = try finishing.finish()
            }
            let straceInput = try straceLog.map { log throws(RecordError) in try StraceLauncher.read(log: log.temporaryPath) }
            let output = try OutputFile(path: options.outputPath)
            scratch.append(output)
            let assembler = TraceAssembler(
                process: processName(options.command), pid: run.commandPID, wallClockStart: run.wallClockStart,
                skipsStraceNetwork: options.captureInterface != nil)
            var reader = SampleLineReader(descriptor: samples.descriptor, path: options.outputPath)
            let (events, straceEvents) = try assembler.assemble(samples: &reader, strace: straceInput, into: output)
            scratch.removeLast()
            try output.commit()
            return RecordResult(
                exitStatus: run.exitStatus, tracePath: options.outputPath,
                capturePath: options.captureInterface == nil ? nil : options.capturePath, samples: run.samples, events: events,
                straceEvents: straceEvents, packetsCaptured: Int(packets.received), packetsDropped: Int(packets.dropped))
        } catch {
            capture?.discard()
            throw error
        }
    }

    private struct Run {
        var exitStatus: Int32
        var commandPID: Int32
        var wallClockStart: Int64
        var samples: Int
    }

    /// Starts the command and samples its tree every `interval` until it exits, writing the
    /// sample lines to `file`.
    private static func sample(
        _ arguments: [String], interval: Nanoseconds, excludingRoot: Bool, mapping: SampleMapping, into file: OutputFile
    ) throws(RecordError) -> Run {
        ChildProcess.becomeSubreaper()
        let gate = SignalGate()
        defer { gate.restore() }
        let wallClockStart = TraceClock.wallNow()
        let child = try ChildProcess.spawn(arguments)
        var sampler = ProcSampler(root: child.pid, excluding: excludingRoot ? child.pid : nil)
        defer { sampler.close() }
        var sample = IntervalSample(start: 0, end: 0)
        var mapping = mapping
        var line = JSONLine(capacity: flushBytes + 16 * 1024)
        var last: Nanoseconds = 0
        var deadline = TraceClock.monotonicNow() + interval
        var samples = 0
        var exited = false
        var writeFailure: RecordError?
        while !exited {
            exited = child.hasExited()
            while !exited, gate.wait(until: deadline, forwardingTo: child) {
                exited = child.hasExited()
            }
            let now = max(last, TraceClock.wallNow() - wallClockStart)
            sample.reset(start: last, end: now)
            sampler.sample(into: &sample)
            mapping.write(sample, into: &line)
            samples += 1
            last = now
            if line.count >= flushBytes, writeFailure == nil {
                // A full disk must not stop the command: keep sampling, report at the end.
                do { try file.write(line) } catch { writeFailure = error }
                line.removeAll()
            }
            deadline += interval
            let current = TraceClock.monotonicNow()
            if deadline <= current { deadline = current + interval }
        }
        let status = child.reap()
        if let writeFailure { throw writeFailure }
        try file.write(line)
        return Run(exitStatus: status, commandPID: sampler.commandPID ?? child.pid, wallClockStart: wallClockStart, samples: samples)
    }

    /// The trace header's process name: the command's file name.
    static func processName(_ command: [String]) -> String {
        let program = command[0]
        guard let slash = program.lastIndex(of: "/") else { return program }
        let name = program[program.index(after: slash)...]
        return name.isEmpty ? program : String(name)
    }

    /// `20ms`, `0.5ms`, `1s`.
    static func describe(interval: Nanoseconds) -> String {
        var line = JSONLine()
        if interval % 1_000_000_000 == 0 {
            line.seconds(interval)
            line.raw("s")
        } else {
            line.seconds(interval * 1000)
            line.raw("ms")
        }
        return String(decoding: line.bytes, as: UTF8.self)
    }

    private static func describe(_ command: [String]) -> String {
        var line = JSONLine()
        line.string(command.joined(separator: " "))
        return String(decoding: line.bytes, as: UTF8.self)
    }
}
#endif
