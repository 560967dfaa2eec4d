#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written under a temporary name in the folder of its final path and renamed
/// into place only when complete, so that a reader sees the old file or the whole new one,
/// and a failed or interrupted writer never leaves a half-written file under the name
/// asked for.
///
/// Call `commit` or `discard` exactly once; every failure of `commit` removes the
/// temporary file.
public struct AtomicFile: Sendable {
    /// The final path.
    public let path: String
    /// The temporary file's path: `.<name>.XXXXXX` beside `path`.
    public let temporaryPath: String
    /// The open temporary file, close-on-exec.
    public let descriptor: Int32

    /// Creates the temporary file, with the permissions a plain create would give
    /// (0666 less the umask).
    ///
    /// - Throws: `FileWriteError` with operation `.createFile` (a path holding NUL:
    ///   `EINVAL`; a path ending in `/`: `EISDIR`).
    public init(path: String) throws(FileWriteError) {
        guard !path.utf8.contains(0) else { throw FileWriteError(path: path, operation: .createFile, code: EINVAL) }
        guard !path.isEmpty, path.utf8.last != UInt8(ascii: "/") else {
            throw FileWriteError(path: path, operation: .createFile, code: EISDIR)
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FileWriteError(path: path, operation: .createFile, code: errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        self.path = path
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.descriptor = descriptor
    }

    /// Writes all of `bytes` (see `FileIO.writeAll`).
    ///
    /// - Throws: `FileWriteError` with operation `.write`; the temporary file stays until
    ///   `discard()`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileWriteError) {
        let code = FileIO.writeAll(bytes, to: descriptor).code
        guard code == 0 else { throw FileWriteError(path: path, operation: .write, code: code) }
    }

    /// Optionally flushes the file to disk (`fsync`), closes it and renames it to `path`,
    /// replacing any file there.
    ///
    /// - Throws: `FileWriteError` (`.sync`, `.write` for a failed close, `.rename`); the
    ///   temporary file is then removed and `path` untouched.
    public func commit(synchronizing: Bool) throws(FileWriteError) {
        var failure: (FileWriteError.Operation, Int32)?
        if synchronizing, fsync(descriptor) != 0 { failure = (.sync, errno) }
        if close(descriptor) != 0, failure == nil, errno != EINTR { failure = (.write, errno) }
        if failure == nil, rename(temporaryPath, path) != 0 { failure = (.rename, errno) }
        if let (operation, code) = failure {
            unlink(temporaryPath)
            throw FileWriteError(path: path, operation: operation, code: code)
        }
    }

    /// Closes and removes the temporary file.
    public func discard() {
        close(descriptor)
        unlink(temporaryPath)
    }

    /// Writes `bytes` to `path` atomically, flushed to disk before the rename.
    ///
    /// - Throws: `FileWriteError`; the target is then untouched and no temporary file remains.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(FileWriteError) {
        let file = try AtomicFile(path: path)
        do throws(FileWriteError) {
            try file.write(bytes)
        } catch {
            file.discard()
            throw error
        }
        try file.commit(synchronizing: true)
    }
}
