import DrainTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Faults outside the input's content — an input truncated while it is read, a file system
/// that fills up or a file-size limit while the reports are written — end in a clear error
/// and a documented exit status, with no report and no temporary file left behind.
@Suite(.serialized) struct FaultTests {
    let header = #"{"drain_trace":1,"process":"x","pid":1,"device":"iphone-lte","start":"2026-11-22T10:00:00.000Z"}"#
    var sample: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }

    /// Every name in `directory` except `keep`.
    private func leftovers(_ directory: URL, keeping keep: Set<String> = []) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !keep.contains($0) }.sorted()
    }

    /// How far process `pid` has read `path`: its descriptor's position (`/proc/PID/fdinfo`), or
    /// what the process has read in all when that is more.
    private static func readPosition(of path: String, pid: Int32) -> Int? {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        for descriptor in descriptors where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")) == path {
            guard let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(descriptor)", encoding: .utf8) else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("pos:") {
                // A trace read in halves is read with pread, which leaves the position where it
                // was opened: then what the process has read in all tells how far it is.
                return max(Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces)) ?? 0, bytesRead(by: pid))
            }
        }
        return nil
    }

    /// The bytes `pid` has read with read system calls of any kind (`rchar` of /proc/PID/io).
    private static func bytesRead(by pid: Int32) -> Int {
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return 0 }
        for line in io.split(separator: "\n") where line.hasPrefix("rchar:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    /// Starts `drain analyze INPUT --json OUT`, stops it once it is reading `input`, truncates
    /// `input` to `keep` bytes, and lets it go on. Returns its status and standard error, or
    /// nil if it finished before it could be stopped (the input was too small to catch).
    private func truncateWhileRead(_ input: URL, keep: UInt64, report: URL) throws -> (status: Int32, error: String)? {
        try interruptWhileRead(input, report: report) { _ in
            let handle = try FileHandle(forWritingTo: input)
            try handle.truncate(atOffset: keep)
            try handle.close()
        }.map { ($0.status, $0.error) }
    }

    /// Starts `drain analyze INPUT --json OUT`, stops it once it is reading `input` — through
    /// a mapping, with `mapped` — calls `interrupt` with its process id, and lets it go on.
    /// Returns how it ended and its standard error, or nil if it finished before it could be
    /// stopped (the input was too small to catch).
    private func interruptWhileRead(
        _ input: URL, report: URL, mapped: Bool = false, environment: [String: String] = [:], _ interrupt: (Int32) throws -> Void
    ) throws -> (status: Int32, reason: Process.TerminationReason, error: String)? {
        let process = Process()
        process.executableURL = DrainCommand.executable
        process.arguments = ["analyze", input.path, "--json", report.path, "-q"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(30)
        var caught = false
        let size = try #require(try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int)
        while process.isRunning, Date() < deadline {
            // The reader, not the format sniffer (which reads a few KiB and closes), is at least
            // 1 MiB in and not yet at the end; or, for a capture read in place, has mapped the
            // file and read a batch's worth of it (dropping pages behind it).
            let reading = !mapped && (Self.readPosition(of: input.path, pid: pid).map { $0 > 1 << 20 && $0 < size - (1 << 20) } ?? false)
            let inMapping = (residentKiB(ofMappingIn: "\(pid)") { $0.hasSuffix(" \(input.path)") } ?? 0) >= 1 << 10
            if reading || inMapping {
                kill(pid, SIGSTOP)
                caught = process.isRunning
                try interrupt(pid)
                kill(pid, SIGCONT)
                break
            }
            usleep(500)
        }
        let error = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return caught ? (process.terminationStatus, process.terminationReason, error) : nil
    }

    @Test func aTraceTruncatedWhileReadIsUnreadableAndWritesNoReport() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = [header]
        for index in 0..<400_000 {
            lines.append(#"{"t":\#(index / 1000).\#(index % 1000),"type":"cpu","dur":0.0002,"name":"step"}"#)
        }
        let trace = try writeTrace(lines, named: "growing.jsonl", in: directory)
        let report = directory.appendingPathComponent("report.json")
        try expectShrankWhileRead(try #require(try truncateWhileRead(trace, keep: 1_000, report: report)), "growing.jsonl", in: directory)
    }

    @Test func aCaptureTruncatedWhileReadIsUnreadableAndWritesNoReport() throws {
        try withLargeCapture { directory, capture, report in
            try expectShrankWhileRead(try #require(try truncateWhileRead(capture, keep: 5_000, report: report)), "capture.pcap", in: directory)
        }
    }

    /// What a run whose input `name` was truncated under it shows: exit status 66, an error
    /// naming the file, and nothing left in `directory` but the input.
    private func expectShrankWhileRead(
        _ outcome: (status: Int32, error: String), _ name: String, in directory: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(outcome.status == 66, "\(outcome.error)", sourceLocation: sourceLocation)
        #expect(
            outcome.error.contains("\(name): cannot read: the file shrank while it was read"), "\(outcome.error)",
            sourceLocation: sourceLocation)
        #expect(try leftovers(directory) == [name], sourceLocation: sourceLocation)
    }

    /// A SIGBUS sent by another process while a capture is read from a mapping is not one the
    /// mapping's guard handles (no page of the file is missing): it still ends the process.
    @Test func aBusErrorSignalSentWhileACaptureIsMappedStillEndsTheRun() throws {
        try withLargeCapture { directory, capture, report in
            // No crash log: the Swift runtime's backtracer would take seconds to write one.
            let outcome = try #require(
                try interruptWhileRead(capture, report: report, mapped: true, environment: ["SWIFT_BACKTRACE": "enable=no"]) {
                    kill($0, SIGBUS)
                })
            #expect(outcome.reason != .exit || outcome.status != 0, "\(outcome.error)")
            // A sanitizer's own SIGBUS handler ends the process with a status of its own instead.
            if ProcessInfo.processInfo.environment["DRAIN_TEST_SANITIZER"] == nil {
                #expect(outcome.reason == .uncaughtSignal && outcome.status == SIGBUS, "\(outcome.status) \(outcome.error)")
            }
            #expect(try leftovers(directory) == ["capture.pcap"])
        }
    }

    /// Calls `body` with a new directory, `capture.pcap` in it — 600,000 small UDP packets a
    /// millisecond apart, about 70 MB, read ahead and in place — and where its report would
    /// go; removes the directory afterwards.
    private func withLargeCapture(_ body: (_ directory: URL, _ capture: URL, _ report: URL) throws -> Void) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var writer = PcapWriter(linkType: Frame.ethernetType)
        // One frame, built once: building it per packet took most of the test's time under a
        // sanitizer.
        let frame = Frame.ethernet(IPPacket.udp(from: "192.168.1.2", 50000, to: "93.184.216.34", 4000, [UInt8](repeating: 7, count: 64)))
        for index in 0..<600_000 {
            writer.add(at: 1_700_000_000 + Double(index) / 1000, frame)
        }
        let capture = directory.appendingPathComponent("capture.pcap")
        try writer.write(to: capture)
        try body(directory, capture, directory.appendingPathComponent("report.json"))
    }

    /// Not under ThreadSanitizer: its runtime dies with SIGBUS at start-up under any
    /// `RLIMIT_FSIZE` (even `drain --version` does), before Drain runs.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DRAIN_TEST_SANITIZER"] != "thread"))
    func aFileSizeLimitWhileWritingReportsIsExit73WithNothingLeft() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        // The sample's reports are larger than 32 KiB.
        let result = try DrainCommand.runLimited(
            ["analyze", sample, "-q", "--json", output.appendingPathComponent("r.json").path,
             "--html", output.appendingPathComponent("r.html").path, "--csv", output.appendingPathComponent("csv").path],
            limits: [.fileSize(32 << 10)], scratch: directory)
        #expect(result.status == 73, "\(result.standardError)")
        #expect(result.standardError.contains(": File too large (while writing)"), "\(result.standardError)")
        #expect(try leftovers(output) == [])
    }

    /// Needs `mount` (root, or a container that allows it); the file-size test above covers
    /// the same path without it.
    @Test(.enabled(if: FaultTests.canMountTmpfs())) func aFullFileSystemWhileWritingReportsIsExit73WithNothingLeft() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mountPoint = directory.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try #require(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path]) == 0)
        defer { _ = Self.run("/bin/umount", [mountPoint.path]) }
        let result = try DrainCommand.run(
            ["analyze", sample, "-q", "--json", mountPoint.appendingPathComponent("r.json").path,
             "--html", mountPoint.appendingPathComponent("r.html").path])
        #expect(result.status == 73, "\(result.standardError)")
        #expect(result.standardError.contains("No space left on device"), "\(result.standardError)")
        #expect(try leftovers(mountPoint) == [])
    }

    static func canMountTmpfs() -> Bool {
        guard geteuid() == 0, let directory = try? makeTemporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(at: directory) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=4k", "tmpfs", directory.path]) == 0 else { return false }
        _ = run("/bin/umount", [directory.path])
        return true
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
