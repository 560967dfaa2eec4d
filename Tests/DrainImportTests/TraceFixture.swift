import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// A trace written to a file of its own in a fresh temporary directory, the way the
/// importer meets traces in use.
struct TraceFixture {
    let directory: URL
    let path: String

    init(_ text: String, name: String = "trace.jsonl") throws {
        try self.init(bytes: Array(text.utf8), name: name)
    }

    init(bytes: [UInt8], name: String = "trace.jsonl") throws {
        directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        path = url.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Imports the file, in reads of `chunkSize` bytes when given.
    func read(chunkSize: Int? = nil) throws(ImportError) -> ImportedInput {
        if let chunkSize {
            return try DrainTraceImporter.read(path: path, inputIndex: 0, chunkSize: chunkSize)
        }
        return try DrainTraceImporter.read(path: path)
    }
}

/// The header used by fixtures that do not test the header.
let header = #"{"drain_trace":1,"process":"Fixture","device":"iphone-lte"}"#

/// Imports `lines` (joined with newlines, with a final newline) written to a file.
func importTrace(_ lines: [String], chunkSize: Int? = nil) throws -> ImportedInput {
    let fixture = try TraceFixture(lines.joined(separator: "\n") + "\n")
    defer { fixture.remove() }
    return try fixture.read(chunkSize: chunkSize)
}

/// Imports raw bytes written to a file.
func importTrace(bytes: [UInt8], chunkSize: Int? = nil) throws -> ImportedInput {
    let fixture = try TraceFixture(bytes: bytes)
    defer { fixture.remove() }
    return try fixture.read(chunkSize: chunkSize)
}

/// The error importing `text` fails with, with the fixture's path for comparison.
func importFailure(_ text: String) throws -> (error: ImportError, path: String)? {
    let fixture = try TraceFixture(text)
    defer { fixture.remove() }
    do {
        _ = try fixture.read()
        return nil
    } catch {
        return (error, fixture.path)
    }
}

/// The location and reason of a bad-data error from importing `lines`; nil (and a test
/// failure) for any other outcome.
func badData(
    _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws -> (location: String?, reason: String)? {
    guard let (error, path) = try importFailure(lines.joined(separator: "\n") + "\n") else {
        Issue.record("the import succeeded", sourceLocation: sourceLocation)
        return nil
    }
    guard case let .badData(errorPath, location, reason) = error else {
        Issue.record("expected bad data, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    #expect(errorPath == path, sourceLocation: sourceLocation)
    return (location, reason)
}

extension Timeline {
    /// The string for an id, for checking string columns.
    func text(_ id: StringID) -> String { strings[id] }
}

extension ImportDiagnostics {
    func entry(_ code: String) -> ImportDiagnostic? { entries.first { $0.code == code } }
}
