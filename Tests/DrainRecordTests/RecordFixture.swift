#if os(Linux)
import DrainImport
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// A scratch folder for recordings beside the test binary: on the build's disk, since
/// `write_bytes` stays 0 on a tmpfs `/tmp` (tmpfs pages are never written back).
struct RecordFixture {
    let directory: URL

    init() throws {
        directory = DrainCommand.executable.deletingLastPathComponent()
            .appendingPathComponent("record-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `drain record ARGUMENTS… -- COMMAND…` in the folder.
    func record(_ arguments: [String], _ command: [String]) throws -> CommandResult {
        try DrainCommand.run(["record"] + arguments + ["--"] + command, in: directory)
    }

    /// Reads a recorded trace with the trace importer `drain analyze` uses.
    func trace(_ name: String) throws -> ImportedInput {
        try DrainTraceImporter.read(path: path(name))
    }

    /// The `pid` of a trace's header line, as text.
    func headerPID(_ name: String) throws -> String {
        let header = try String(contentsOfFile: path(name), encoding: .utf8).prefix { $0 != "\n" }
        let field = try #require(header.split(separator: ",").first { $0.hasPrefix("\"pid\":") })
        return String(field.dropFirst(6))
    }

    /// `drain analyze` of the files exits 0 with a JSON report.
    func expectAnalyzes(_ names: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try DrainCommand.run(["analyze"] + names.map(path) + ["--json", "-", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.hasPrefix("{"), sourceLocation: sourceLocation)
    }

    /// The file names in the folder, so tests can check nothing else was left behind.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

extension Timeline {
    /// The rows of one kind.
    func events(_ kind: EventKind) -> [Event] {
        (0..<count).filter { self.kind[$0] == kind }.map { self[$0] }
    }
}

/// Whether strace is installed (scripts/setup installs it, so CI has it).
let straceInstalled = ["/usr/bin/strace", "/bin/strace", "/usr/local/bin/strace"].contains {
    FileManager.default.isExecutableFile(atPath: $0)
}
#endif
