#if os(Linux)
import DrainImport
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// `drain record` run as a program, recording real commands. Serialized: the recordings
/// measure CPU time, and the build machine is shared.
@Suite(.serialized) struct RecordCommandTests {
    @Test func exitStatusOfTheCommandPassesThrough() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let result = try fixture.record(["-q", "-o", "exit.jsonl"], ["sh", "-c", "exit 3"])
        #expect(result.status == 3)
        #expect(result.standardError.isEmpty)
        try fixture.expectAnalyzes(["exit.jsonl"])
    }

    @Test func deathBySignalIs128PlusTheSignal() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let result = try fixture.record(["-q", "-o", "killed.jsonl"], ["sh", "-c", "kill -TERM $$"])
        #expect(result.status == 128 + 15)
        try fixture.expectAnalyzes(["killed.jsonl"])
    }

    /// SIGTERM sent to the recorder reaches the command; the recorder still writes the trace
    /// and exits with the command's status.
    @Test func terminationIsForwardedToTheCommand() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let process = Process()
        process.executableURL = DrainCommand.executable
        process.arguments = ["record", "-q", "-o", fixture.path("term.jsonl"), "--", "sleep", "30"]
        try process.run()
        // Until the sleep runs (the recorder has written a sample of it).
        let start = Date()
        while try fixture.files().isEmpty, Date().timeIntervalSince(start) < 10 { usleep(20_000) }
        usleep(200_000)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + 15)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(try fixture.files() == ["term.jsonl"])
        try fixture.expectAnalyzes(["term.jsonl"])
    }

    @Test func standardOutputAndErrorPassThroughUntouched() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let command = ["sh", "-c", "printf 'out 1\\nout 2\\n'; printf 'err\\n' >&2"]
        let quiet = try fixture.record(["-q", "-o", "quiet.jsonl"], command)
        #expect(quiet.standardOutput == "out 1\nout 2\n")
        #expect(quiet.standardError == "err\n")
        // Without -q, status lines go to standard error only.
        let loud = try fixture.record(["-o", "loud.jsonl"], command)
        #expect(loud.standardOutput == "out 1\nout 2\n")
        #expect(loud.standardError.contains("err\n"))
        #expect(loud.standardError.contains("drain: recorded"))
        #expect(loud.standardError.contains("loud.jsonl"))
        try fixture.expectAnalyzes(["quiet.jsonl"])
    }

    /// A shell loop reports its own CPU time with `times`; the trace's cpu slices of the
    /// shell add up to about the same (within 25 % and 50 ms: schedstat and `times` count
    /// differently, and the shell's start-up precedes the loop).
    @Test func cpuTimeMatchesWhatTheProcessReports() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let script = "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; times"
        let result = try fixture.record(["-q", "-o", "busy.jsonl"], ["sh", "-c", script])
        #expect(result.status == 0)
        // dash: "0m0.490000s 0m0.000000s" (user, system of the shell), then its children's.
        let reported = try #require(result.standardOutput.split(separator: "\n").first).split(separator: " ").map(Self.seconds)
        let shellSeconds = reported.reduce(0, +)
        #expect(shellSeconds > 0.1, "the loop is too short to measure: \(result.standardOutput)")
        let input = try fixture.trace("busy.jsonl")
        #expect(input.info.process == "sh")
        let pid = try #require(input.timeline.strings.lookup(try fixture.headerPID("busy.jsonl")))
        let traced = input.timeline.events(.cpu).filter { $0.thread == pid }.reduce(0.0) { $0 + Clock.seconds($1.duration) }
        #expect(abs(traced - shellSeconds) <= 0.25 * shellSeconds + 0.05, "trace \(traced) s, times \(shellSeconds) s")
        // The samples come every 20 ms by default, each slice within its interval.
        #expect(input.timeline.events(.cpu).allSatisfy { $0.duration <= 1_000_000_000 })
        // The shell's resident memory, a few hundred KiB at least.
        let memory = input.timeline.events(.memory)
        #expect(!memory.isEmpty && memory.allSatisfy { $0.amount > 100_000 })
        try fixture.expectAnalyzes(["busy.jsonl"])
    }

    /// `dd` writes 4 MiB and syncs; the trace's disk writes hold at least that many bytes,
    /// whether counted at dd or, after dd was reaped, at the shell that waited for it.
    @Test func diskBytesCoverWhatTheCommandWrote() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let script = "dd if=/dev/zero of=out.bin bs=65536 count=64 conv=fsync 2>/dev/null; sleep 0.1"
        let result = try fixture.record(["-q", "-o", "disk.jsonl", "--interval", "5ms"], ["sh", "-c", script])
        #expect(result.status == 0)
        let written = try #require(try FileManager.default.attributesOfItem(atPath: fixture.path("out.bin"))[.size] as? Int)
        #expect(written == 64 * 65_536)
        let disk = try fixture.trace("disk.jsonl").timeline.events(.disk)
        let bytes = disk.reduce(0) { $0 + $1.amount }
        #expect(bytes >= Int64(written), "the trace has \(bytes) bytes of disk writes")
        // Counted once: the kernel adds a reaped child's counters to its parent's.
        #expect(bytes < 2 * Int64(written))
        try fixture.expectAnalyzes(["disk.jsonl"])
    }

    /// The shell forks a second shell that does the work: the child is found and sampled.
    @Test func childrenOfTheCommandAreSampled() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let child = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"
        let result = try fixture.record(["-q", "-o", "tree.jsonl"], ["sh", "-c", "sh -c '\(child)'; true"])
        #expect(result.status == 0)
        let input = try fixture.trace("tree.jsonl")
        let rootPID = try fixture.headerPID("tree.jsonl")
        var cpuByThread: [String: Double] = [:]
        for event in input.timeline.events(.cpu) {
            cpuByThread[input.timeline.strings[event.thread], default: 0] += Clock.seconds(event.duration)
        }
        let childCPU = cpuByThread.filter { $0.key != rootPID }.values.reduce(0, +)
        #expect(cpuByThread.count >= 2, "\(cpuByThread)")
        #expect(childCPU > 0.05, "\(cpuByThread)")
        try fixture.expectAnalyzes(["tree.jsonl"])
    }

    /// A grandchild whose parent exits at once (a daemonising pattern) is re-parented to the
    /// recorder, a child subreaper, and still sampled while the command runs on.
    @Test func orphanedDescendantsAreStillFollowed() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let busy = "i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done"
        let script = "sh -c '(\(busy)) &'; sleep 1.5"
        let result = try fixture.record(["-q", "-o", "orphan.jsonl"], ["sh", "-c", script])
        #expect(result.status == 0)
        let input = try fixture.trace("orphan.jsonl")
        let rootPID = try fixture.headerPID("orphan.jsonl")
        let others = input.timeline.events(.cpu).filter { input.timeline.strings[$0.thread] != rootPID }
        let seconds = others.reduce(0.0) { $0 + Clock.seconds($1.duration) }
        #expect(seconds > 0.1, "the orphan's CPU: \(seconds) s")
        try fixture.expectAnalyzes(["orphan.jsonl"])
    }

    /// With one sample every 10 s, five short children are born and reaped between samples:
    /// their CPU comes back through the shell's cutime/cstime as "reaped children" slices,
    /// about what `times` reports for the shell's children (10 ms ticks: within 25 % and
    /// 60 ms).
    @Test func childrenReapedBetweenSamplesStillCount() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let child = "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done"
        let script = "for n in 1 2 3 4 5; do sh -c '\(child)'; done; times"
        let result = try fixture.record(["-q", "-o", "reaped.jsonl", "--interval", "10s"], ["sh", "-c", script])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        try #require(lines.count == 2, "\(result.standardOutput)")
        let childrenSeconds = lines[1].split(separator: " ").map(Self.seconds).reduce(0, +)
        #expect(childrenSeconds > 0.1, "the children are too short to measure: \(result.standardOutput)")
        let timeline = try fixture.trace("reaped.jsonl").timeline
        let reaped = timeline.events(.cpu).filter { timeline.strings[$0.label] == "reaped children" }
        let traced = reaped.reduce(0.0) { $0 + Clock.seconds($1.duration) }
        #expect(abs(traced - childrenSeconds) <= 0.25 * childrenSeconds + 0.06, "trace \(traced) s, times \(childrenSeconds) s")
        try fixture.expectAnalyzes(["reaped.jsonl"])
    }

    @Test(.enabled(if: straceInstalled, "strace is not installed (scripts/setup installs it)"))
    func straceAddsPollsAndDiskWritesWithPaths() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let script = "echo hello > note.txt; sleep 0.05"
        let result = try fixture.record(["-q", "-o", "strace.jsonl", "--strace"], ["sh", "-c", script])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let timeline = try fixture.trace("strace.jsonl").timeline
        let polls = timeline.events(.poll)
        #expect(polls.contains { timeline.strings[$0.label] == "sleep" && $0.duration == 50_000_000 })
        let writes = timeline.events(.disk).filter { $0.code == DiskOperation.write.rawValue }
        #expect(writes.contains { timeline.strings[$0.label] == fixture.path("note.txt") && $0.amount == 6 })
        // strace's events and the samples share one clock: all within the run.
        #expect(timeline.events(.cpu).isEmpty == false)
        #expect(timeline.time.allSatisfy { $0 <= timeline.end })
        // No scratch files are left beside the trace.
        #expect(try fixture.files() == ["note.txt", "strace.jsonl"])
        try fixture.expectAnalyzes(["strace.jsonl"])
    }

    /// Captures loopback while this test sends datagrams over it; without the privilege,
    /// the clear error instead (exit 77) and nothing written.
    @Test func captureOnLoopbackLinesUpWithTheTrace() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let sender = LoopbackSender()
        sender.start()
        let result = try fixture.record(["-q", "-o", "net.jsonl", "--capture", "lo"], ["sleep", "1"])
        sender.stop()
        if result.status == 77 {
            #expect(result.standardError.contains("--capture \"lo\": no permission to capture packets"))
            #expect(try fixture.files().isEmpty)
            return
        }
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try fixture.files() == ["net.jsonl", "net.pcap"])
        let report = try DrainCommand.run(["analyze", fixture.path("net.jsonl"), fixture.path("net.pcap"), "--json", "-", "-q"])
        #expect(report.status == 0, "\(report.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        let inputs = try #require(object["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["format"] as? String } == ["drain-trace", "pcap"])
        let packets = try #require(inputs[1]["packets"] as? Int)
        #expect(packets > 0)
        // Lined up by wall clock: the capture starts within the recorded second.
        let offset = try #require(inputs[1]["offset_s"] as? Double)
        #expect(offset >= 0 && offset < 2)
    }

    @Test func unknownInterfaceIsAUsageErrorBeforeTheCommandRuns() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let result = try fixture.record(["-o", "x.jsonl", "--capture", "nosuch0"], ["touch", "ran"])
        #expect(result.status == 64 || result.status == 77, "\(result.standardError)")
        #expect(result.standardError.contains("--capture"))
        #expect(try fixture.files().isEmpty)
    }

    /// A script's file name becomes its processes' name in the kernel: quotes, a backslash
    /// and a newline in it come back exactly from the trace, which stays valid JSON.
    @Test func hostileProcessNamesAreEscaped() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let name = "e\"v\\i\nl"
        let script = fixture.directory.appendingPathComponent(name)
        try "#!/bin/sh\ni=0; while [ $i -lt 20000 ]; do i=$((i+1)); done\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let result = try fixture.record(["-q", "-o", "names.jsonl"], ["./" + name])
        #expect(result.status == 0, "\(result.standardError)")
        let input = try fixture.trace("names.jsonl")
        #expect(input.info.process == name)
        let names = Set(input.timeline.events(.cpu).map { input.timeline.strings[$0.label] })
        #expect(names.contains(name), "\(names)")
        try fixture.expectAnalyzes(["names.jsonl"])
    }

    @Test func missingCommandIs127AndLeavesNoFiles() throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let result = try fixture.record(["-o", "x.jsonl"], ["drain-no-such-command-\u{1B}[31m"])
        #expect(result.status == 127)
        #expect(result.standardError.contains("command not found"))
        #expect(!result.standardError.contains("\u{1B}"))
        #expect(try fixture.files().isEmpty)
    }

    @Test(arguments: [["--interval", "0.1ms"], ["--interval", "soon"], []])
    func badUsageIs64(_ arguments: [String]) throws {
        let fixture = try RecordFixture()
        defer { fixture.remove() }
        let command = arguments.isEmpty ? [] : ["true"]
        let result = try DrainCommand.run(["record", "-o", "x.jsonl"] + arguments + (command.isEmpty ? [] : ["--"] + command), in: fixture.directory)
        #expect(result.status == 64)
        #expect(try fixture.files().isEmpty)
    }

    private static func seconds(_ text: Substring) -> Double {
        // "0m0.490000s"
        let parts = text.dropLast().split(separator: "m")
        return (Double(parts.first ?? "0") ?? 0) * 60 + (Double(parts.last ?? "0") ?? 0)
    }
}

/// Sends a small UDP datagram to 127.0.0.1 every 20 ms from a thread of the test process.
final class LoopbackSender: @unchecked Sendable {
    private let lock = NSLock()
    private var running = false
    private let done = DispatchSemaphore(value: 0)

    func start() {
        lock.withLock { running = true }
        Thread.detachNewThread { [self] in
            let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(9).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let payload = [UInt8](repeating: 0x61, count: 64)
            while lock.withLock({ running }) {
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        _ = sendto(socket, payload, payload.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                usleep(20_000)
            }
            close(socket)
            done.signal()
        }
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}
#endif
