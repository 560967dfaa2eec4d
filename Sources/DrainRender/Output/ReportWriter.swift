import DrainTraceWriter

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes report files atomically with `AtomicFile`: the text goes to a temporary file in
/// the target's directory, is flushed to disk, and is then renamed over the target, so a
/// reader sees the old file or the whole new one, never a partial one. `-` (standard output)
/// is the caller's business.
public enum ReportWriter {
    /// Writes `text` (UTF-8) to `path`, replacing any file there. The parent directory must
    /// exist. O(size of `text`).
    ///
    /// - Throws: `ReportWriteError` naming `path`, the step and the system's reason; the
    ///   target is then untouched and no temporary file remains. A path holding NUL is
    ///   refused with `EINVAL`.
    public static func write(_ text: String, to path: String) throws(ReportWriteError) {
        guard !path.contains("\0") else { throw ReportWriteError(path: path, operation: .invalidName, code: EINVAL) }
        if isSpecialFile(path) {
            try writeInPlace(text, to: path)
            return
        }
        let file = try stage(text, for: path)
        do { try file.commit(synchronizing: false) } catch { throw ReportWriteError(error) }
    }

    /// Writes each table to `<directory>/<name>.csv`, creating `directory` (and its missing
    /// parents) first. Every table is staged in a temporary file before any is moved into
    /// place, so a failure while writing leaves every existing table untouched.
    ///
    /// - Throws: `ReportWriteError`; a table name that is not a plain file name (empty, `.`,
    ///   `..`, or holding `/` or NUL) is refused with `EINVAL`.
    public static func writeTables(_ tables: [RenderedTable], directory: String) throws(ReportWriteError) {
        guard !directory.contains("\0") else { throw ReportWriteError(path: directory, operation: .invalidName, code: EINVAL) }
        var staged: [AtomicFile] = []
        do throws(ReportWriteError) {
            for table in tables {
                guard isPlainFileName(table.name) else {
                    throw ReportWriteError(path: join(directory, table.name + ".csv"), operation: .invalidName, code: EINVAL)
                }
            }
            try createDirectory(directory)
            for table in tables { staged.append(try stage(table.text, for: join(directory, table.name + ".csv"))) }
        } catch {
            for file in staged { file.discard() }
            throw error
        }
        for (index, file) in staged.enumerated() {
            do throws(FileWriteError) {
                try file.commit(synchronizing: false)
            } catch {
                for remaining in staged[(index + 1)...] { remaining.discard() }
                throw ReportWriteError(error)
            }
        }
    }

    /// Writes `text` to a new temporary file beside `path`, flushed to disk; removes it and
    /// throws on any failure.
    private static func stage(_ text: String, for path: String) throws(ReportWriteError) -> AtomicFile {
        let file: AtomicFile
        do { file = try AtomicFile(path: path) } catch { throw ReportWriteError(error) }
        var bytes = text
        let code = bytes.withUTF8 { FileIO.writeAll(UnsafeRawBufferPointer($0), to: file.descriptor).code }
        let failure: (ReportWriteError.Operation, Int32)? =
            code != 0 ? (.write, code) : (fsync(file.descriptor) != 0 ? (.sync, errno) : nil)
        if let (operation, code) = failure {
            file.discard()
            throw ReportWriteError(path: path, operation: operation, code: code)
        }
        return file
    }

    /// Whether `path` exists and is not a regular file or directory: a character device such
    /// as `/dev/null` or `/dev/stdout`, or a FIFO. Those cannot be replaced by a rename, and
    /// there is no half-written file to protect.
    static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFCHR || type == S_IFIFO
    }

    /// Writes straight into an existing special file.
    private static func writeInPlace(_ text: String, to path: String) throws(ReportWriteError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReportWriteError(path: path, operation: .createFile, code: errno) }
        var bytes = text
        let code = bytes.withUTF8 { FileIO.writeAll(UnsafeRawBufferPointer($0), to: descriptor).code }
        close(descriptor)
        if code != 0 { throw ReportWriteError(path: path, operation: .write, code: code) }
    }

    /// Creates `path` and its missing parents, like `mkdir -p`.
    static func createDirectory(_ path: String) throws(ReportWriteError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = errno
            var status = stat()
            guard code == EEXIST, stat(prefix, &status) == 0 else {
                throw ReportWriteError(path: prefix, operation: .createDirectory, code: code)
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw ReportWriteError(path: prefix, operation: .createDirectory, code: ENOTDIR)
            }
        }
    }

    private static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
