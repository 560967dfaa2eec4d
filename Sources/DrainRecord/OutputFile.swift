#if os(Linux)
import DrainTraceWriter

/// A recording's output file — the trace, the capture, the strace log — written as an
/// `AtomicFile`, so a failed or interrupted recording never leaves a half-written file
/// under the name the user asked for; failures are `RecordError`s.
struct OutputFile {
    private let file: AtomicFile

    var path: String { file.path }
    var temporaryPath: String { file.temporaryPath }
    var descriptor: Int32 { file.descriptor }

    /// Creates `.<name>.XXXXXX` in the directory of `path`.
    init(path: String) throws(RecordError) {
        do {
            file = try AtomicFile(path: path)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(RecordError) {
        do {
            try file.write(bytes)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Writes the bytes of `line`.
    func write(_ line: JSONLine) throws(RecordError) {
        let failure: RecordError? = line.bytes.withUnsafeBytes { bytes in
            do throws(RecordError) {
                try write(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Closes the file and renames it to `path`. Not flushed to disk first: a recording is
    /// replaced by the next run, not kept safe across a power cut.
    func commit() throws(RecordError) {
        do {
            try file.commit(synchronizing: false)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Closes and deletes the temporary file.
    func discard() {
        file.discard()
    }

    private static func failure(_ error: FileWriteError) -> RecordError {
        .cannotWrite(path: error.path, reason: error.reason)
    }
}
#endif
