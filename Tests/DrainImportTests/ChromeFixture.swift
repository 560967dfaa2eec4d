import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Imports Chrome trace text written to a file, in reads of `chunkSize` bytes when given.
func importChrome(_ text: String, chunkSize: Int? = nil) throws -> ImportedInput {
    try importChrome(bytes: Array(text.utf8), chunkSize: chunkSize)
}

func importChrome(bytes: [UInt8], chunkSize: Int? = nil) throws -> ImportedInput {
    let fixture = try TraceFixture(bytes: bytes, name: "trace.json")
    defer { fixture.remove() }
    return try ChromeTraceImporter.read(
        path: fixture.path, inputIndex: 0, chunkSize: chunkSize ?? ChromeTraceImporter.defaultChunkSize)
}

/// The bad-data location and reason importing `text` fails with; nil (and a test failure)
/// for any other outcome. Checks that the error names the file.
func chromeBadData(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (location: String?, reason: String)? {
    let fixture = try TraceFixture(text, name: "trace.json")
    defer { fixture.remove() }
    do {
        _ = try ChromeTraceImporter.read(path: fixture.path)
        Issue.record("the import succeeded", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard case let .badData(path, location, reason) = error else {
            Issue.record("expected bad data, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(path == fixture.path, sourceLocation: sourceLocation)
        return (location, reason)
    }
}

/// One timeline row in the terms tests compare: kind, time and duration in nanoseconds,
/// thread and label as text.
struct Row: Equatable, CustomStringConvertible {
    var kind: EventKind
    var time: Nanoseconds
    var duration: Nanoseconds = 0
    var thread = ""
    var label = ""

    var description: String { "\(kind.traceName)@\(time)+\(duration) [\(thread)] \(label)" }
}

extension Timeline {
    /// The rows of the given kinds, in timeline order.
    func rows(_ kinds: EventKind...) -> [Row] {
        (0..<count).filter { kinds.contains(kind[$0]) }.map {
            Row(kind: kind[$0], time: time[$0], duration: duration[$0], thread: strings[thread[$0]], label: strings[label[$0]])
        }
    }
}
