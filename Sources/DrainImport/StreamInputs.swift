import DrainTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs that are streams — a pipe such as `/dev/stdin`, a FIFO, `<(…)`, a character device
/// or a socket — copied whole into temporary files.
///
/// Drain reads a file's first bytes to tell a saved report from an input and one format from
/// another, and the importer then opens the file again; libpcap and the two-half trace reader
/// need a file they can reopen or seek. A stream gives its bytes once, so its first reader
/// copies it into `$TMPDIR` (else `/tmp`) and every reader in the process then reads the copy.
/// Copies are removed when the process exits; errors name the stream's own path.
public enum StreamInputs {
    private static let lock = ThreadLock()
    /// Per stream path: its copy, or why it could not be copied.
    nonisolated(unsafe) private static var copies: [String: Result<String, ImportError>] = [:]

    /// The file to read for the input at `path`: `path` itself for a regular file (or anything
    /// that is not a stream, whose opening reports its own errors), else the copy of the
    /// stream, made at the first call.
    ///
    /// - Throws: `ImportError.unreadable` naming `path` when the stream cannot be read or the
    ///   copy cannot be written (at every call for that path).
    public static func readablePath(for path: String) throws(ImportError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return path }
        switch status.st_mode & S_IFMT {
        case S_IFIFO, S_IFCHR, S_IFSOCK: break
        default: return path
        }
        let copy = lock.withLock { () -> Result<String, ImportError> in
            if let made = copies[path] { return made }
            if copies.isEmpty { atexit { StreamInputs.removeCopies() } }
            let made = Result { () throws(ImportError) in try copyStream(at: path) }
            copies[path] = made
            return made
        }
        return try copy.get()
    }

    /// The stream at `path` copied into a new temporary file; returns the file's path.
    private static func copyStream(at path: String) throws(ImportError) -> String {
        var source = try FileByteSource(path: path)
        defer { source.close() }
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/drain-input-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        func failure(_ code: Int32) -> ImportError {
            .unreadable(path: path, reason: "cannot copy the stream to \(directory): " + FileByteSource.systemMessage(code))
        }
        guard descriptor >= 0 else { throw failure(errno) }
        let copy = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        do throws(ImportError) {
            while true {
                let count = try source.read(into: buffer)
                guard count > 0 else { break }
                var written = 0
                while written < count {
                    let result = write(descriptor, buffer.baseAddress! + written, count - written)
                    if result < 0, errno == EINTR { continue }
                    guard result > 0 else { throw failure(errno) }
                    written += result
                }
            }
        } catch {
            unlink(copy)
            throw error
        }
        return copy
    }

    /// Removes every copy made so far.
    static func removeCopies() {
        lock.withLock {
            for case .success(let copy) in copies.values { unlink(copy) }
            copies.removeAll()
        }
    }
}

extension ImportError {
    /// The same error about the file at `path` instead.
    public func naming(_ path: String) -> ImportError {
        switch self {
        case let .unreadable(_, reason): .unreadable(path: path, reason: reason)
        case let .badData(_, location, reason): .badData(path: path, location: location, reason: reason)
        case let .unknownFormat(_, reason): .unknownFormat(path: path, reason: reason)
        }
    }
}
