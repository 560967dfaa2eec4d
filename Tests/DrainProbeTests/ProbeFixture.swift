import DrainImport
import DrainProbe
import DrainTestSupport
import DrainTrace
import Foundation

/// A trace file in a fresh temporary directory, written by a probe and read back with the
/// importer `drain analyze` uses.
struct ProbeFixture {
    let directory: URL
    let path: String

    init(name: String = "probe.jsonl") throws {
        directory = try makeTemporaryDirectory()
        path = directory.appendingPathComponent(name).path
    }

    /// A probe writing to this fixture's file; no background sampling unless asked for, so
    /// that the only events are the test's.
    func probe(
        process: String? = "ProbeTests", device: String? = "iphone-lte", bufferCapacity: Int = 64 * 1024,
        memorySamplingInterval: Duration? = nil
    ) throws -> DrainProbe {
        try DrainProbe(
            path: path, process: process, device: device,
            options: .init(bufferCapacity: bufferCapacity, memorySamplingInterval: memorySamplingInterval))
    }

    func read() throws -> ImportedInput {
        try DrainTraceImporter.read(path: path)
    }

    /// The file's lines, header first.
    func lines() throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

extension ImportedInput {
    func text(_ id: StringID) -> String { timeline.strings[id] }

    /// The rows of one kind, in timeline order.
    func events(_ kind: EventKind) -> [Event] {
        (0..<timeline.count).map { timeline[$0] }.filter { $0.kind == kind }
    }

    /// The diagnostic codes the import recorded.
    var diagnosticCodes: [String] { info.diagnostics.entries.map(\.code) }
}

/// The calling thread's name as the trace format writes it: `main` for the main thread,
/// otherwise the kernel thread id, from Linux's `/proc/thread-self` → `PID/task/TID`.
func currentThreadName() throws -> String {
    let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
    let parts = link.split(separator: "/")
    return parts.first == parts.last ? "main" : String(parts.last!)
}
