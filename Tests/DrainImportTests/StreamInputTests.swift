import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Inputs that can be read only once — a pipe into `/dev/stdin`, a FIFO — are copied to a
/// temporary file before detection, so the importer still sees their first bytes.
@Suite("Stream inputs")
struct StreamInputTests {
    /// A FIFO in a fresh directory, fed `bytes` by another thread once a reader opens it.
    private func withFIFO<Result>(feeding bytes: [UInt8], _ body: (String) throws -> Result) throws -> Result {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("input.fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        let writer = JoinableThread.start {
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            bytes.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    guard result > 0 else { break }
                    written += result
                }
            }
            close(descriptor)
        }
        defer { writer?.join() }
        return try body(path)
    }

    @Test("a Drain trace through a FIFO is read whole and named by the FIFO's path")
    func traceThroughAFIFO() throws {
        // Larger than the 64 KiB that detection reads first, so a reader that lost them would
        // miss rows, not only the header.
        let lines = [header] + (0..<5_000).map { #"{"t":\#(Double($0) / 100),"type":"wakeup","reason":"timer","source":"tick"}"# }
        let imported = try withFIFO(feeding: Array((lines.joined(separator: "\n") + "\n").utf8)) { path in
            (try Importers.read(path: path, inputIndex: 0), path)
        }
        #expect(imported.0.timeline.count == 5_000)
        #expect(imported.0.info.path == imported.1)
        #expect(imported.0.timeline.time.last == Clock.nanoseconds(49.99))
    }

    @Test("a stream's format is told from its copy, and reading it afterwards still sees it whole")
    func detectingAStreamDoesNotConsumeIt() throws {
        let lines = [header, #"{"t":1,"type":"wakeup","reason":"timer","source":"tick"}"#]
        let (format, imported) = try withFIFO(feeding: Array((lines.joined(separator: "\n") + "\n").utf8)) { path in
            (try InputFormat.detect(path: path), try Importers.read(path: path, inputIndex: 0))
        }
        #expect(format == .drainTrace)
        #expect(imported.timeline.count == 1)
    }

    @Test("what is no known format through a FIFO is an error naming the FIFO")
    func unknownBytesThroughAFIFO() throws {
        let outcome = try withFIFO(feeding: Array("hello, not a trace\n".utf8)) { path -> (ImportError?, String) in
            do {
                _ = try Importers.read(path: path, inputIndex: 0)
                return (nil, path)
            } catch {
                return (error as? ImportError, path)
            }
        }
        guard case .unknownFormat(let path, _)? = outcome.0 else {
            Issue.record("expected an unknown-format error, got \(String(describing: outcome.0))")
            return
        }
        #expect(path == outcome.1)
    }

    @Test("a regular file is read in place; a stream is copied once and read from the copy")
    func regularFilesAreNotCopied() throws {
        let fixture = try TraceFixture(header + "\n")
        defer { fixture.remove() }
        #expect(try StreamInputs.readablePath(for: fixture.path) == fixture.path)
        let (stream, copy, again) = try withFIFO(feeding: Array("abc".utf8)) { path in
            (path, try StreamInputs.readablePath(for: path), try StreamInputs.readablePath(for: path))
        }
        #expect(copy != stream)
        #expect(again == copy)
        #expect(FileManager.default.contents(atPath: copy) == Data("abc".utf8))
    }
}
