import DrainImport
import DrainProbe
import DrainTrace
import Foundation
import Testing

/// A trace that cannot be created fails at `init`; a write that fails later never reaches
/// the host app: the probe keeps the error, stops writing and counts what it dropped.
@Suite("DrainProbe errors")
struct ErrorTests {
    @Test("a file in a missing folder cannot be opened")
    func missingFolder() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("missing/probe.jsonl").path
        let error = try #require(throws: DrainProbeError.self) { try DrainProbe(path: path) }
        #expect(error == DrainProbeError(operation: .open, path: path, code: ENOENT))
        #expect(error.description == "cannot open trace \(path): No such file or directory")
    }

    @Test("a directory cannot be a trace")
    func directory() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let error = try #require(throws: DrainProbeError.self) { try DrainProbe(path: fixture.directory.path) }
        #expect(error.operation == .open)
        #expect(error.code == EISDIR)
    }

    @Test("a full device fails when the header is written")
    func fullDevice() throws {
        let error = try #require(throws: DrainProbeError.self) { try DrainProbe(path: "/dev/full") }
        #expect(error == DrainProbeError(operation: .open, path: "/dev/full", code: ENOSPC))
    }

    @Test("a pipe whose reader left: EPIPE is kept, no SIGPIPE kills the process, later events are counted as dropped")
    func brokenPipe() throws {
        var descriptors: [Int32] = [-1, -1]
        try #require(pipe(&descriptors) == 0)
        defer { close(descriptors[1]) }
        // The probe opens the pipe's write end by name, as it would a FIFO.
        let path = "/proc/self/fd/\(descriptors[1])"
        let probe = try DrainProbe(path: path, options: .init(memorySamplingInterval: nil))
        var header = [UInt8](repeating: 0, count: 512)
        let headerLength = read(descriptors[0], &header, header.count)
        #expect(String(decoding: header.prefix(max(0, headerLength)), as: UTF8.self).hasPrefix(#"{"drain_trace":1,"#))

        close(descriptors[0])
        probe.mark("lost with the buffer")
        probe.mark("also lost")
        probe.flush()
        // Without the probe's guard the write's SIGPIPE would have ended this test process.
        #expect(probe.lastError == DrainProbeError(operation: .write, path: path, code: EPIPE))
        #expect(probe.droppedEvents == 2)
        probe.net(.tx, bytes: 1)
        probe.flush()
        #expect(probe.droppedEvents == 3)
        #expect(probe.lastError?.code == EPIPE, "the first error stays")
        probe.close()
    }

    @Test("events after close are dropped, and close twice is harmless")
    func afterClose() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        probe.mark("kept")
        probe.close()
        probe.mark("dropped")
        probe.close()
        #expect(probe.droppedEvents == 1)
        #expect(probe.lastError == nil)
        #expect(try fixture.read().timeline.count == 1)
    }

    @Test("releasing the probe flushes and closes the file")
    func deinitFlushes() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        do {
            let probe = try fixture.probe(memorySamplingInterval: .seconds(60))
            probe.mark("written by deinit")
        }
        let input = try fixture.read()
        #expect(input.events(.mark).map { input.text($0.label) } == ["written by deinit"])
    }
}
