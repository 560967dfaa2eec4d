#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes report files atomically: the text goes to a temporary file in the target's
/// directory, is flushed to disk, and is then renamed over the target, so a reader sees the
/// old file or the whole new one, never a partial one. `-` (standard output) is the caller's
/// business.
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
        let temporary = try writeTemporary(text, for: path)
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw ReportWriteError(path: path, operation: .rename, code: code)
        }
    }

    /// Writes each table to `<directory>/<name>.csv`, creating `directory` (and its missing
    /// parents) first. Every table is staged in a temporary file before any is moved into
    /// place, so a failure while writing leaves every existing table untouched.
    ///
    /// - Throws: `ReportWriteError`; a table name that is not a plain file name (empty, `.`,
    ///   `..`, or holding `/` or NUL) is refused with `EINVAL`.
    public static func writeTables(_ tables: [RenderedTable], directory: String) throws(ReportWriteError) {
        guard !directory.contains("\0") else { throw ReportWriteError(path: directory, operation: .invalidName, code: EINVAL) }
        var staged: [(temporary: String, path: String)] = []
        do throws(ReportWriteError) {
            for table in tables {
                guard isPlainFileName(table.name) else {
                    throw ReportWriteError(path: join(directory, table.name + ".csv"), operation: .invalidName, code: EINVAL)
                }
            }
            try createDirectory(directory)
            for table in tables {
                let path = join(directory, table.name + ".csv")
                staged.append((try writeTemporary(table.text, for: path), path))
            }
        } catch {
            for file in staged { unlink(file.temporary) }
            throw error
        }
        for (index, file) in staged.enumerated() where rename(file.temporary, file.path) != 0 {
            let code = errno
            for remaining in staged[index...] { unlink(remaining.temporary) }
            throw ReportWriteError(path: file.path, operation: .rename, code: code)
        }
    }

    /// Writes `text` to a new file beside `path` and returns the file's path; removes it and
    /// throws on any failure.
    static func writeTemporary(_ text: String, for path: String) throws(ReportWriteError) -> String {
        let (directory, name) = split(path)
        guard !name.isEmpty else { throw ReportWriteError(path: path, operation: .createFile, code: EISDIR) }
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<8 {
            temporary = join(directory, ".\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp")
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw ReportWriteError(path: path, operation: .createFile, code: errno) }
        var failure: (ReportWriteError.Operation, Int32)?
        var bytes = text
        let writeCode = bytes.withUTF8 { writeAll($0, to: descriptor) }
        if writeCode != 0 {
            failure = (.write, writeCode)
        } else if fsync(descriptor) != 0 {
            failure = (.sync, errno)
        }
        if close(descriptor) != 0, failure == nil, errno != EINTR { failure = (.write, errno) }
        if let (operation, code) = failure {
            unlink(temporary)
            throw ReportWriteError(path: path, operation: operation, code: code)
        }
        return temporary
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
        let code = bytes.withUTF8 { writeAll($0, to: descriptor) }
        close(descriptor)
        if code != 0 { throw ReportWriteError(path: path, operation: .write, code: code) }
    }

    /// Writes the whole buffer, resuming after short writes and interruptions; returns 0 or
    /// the `errno` of the failure.
    private static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32 {
        guard let base = buffer.baseAddress else { return 0 }
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
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

    /// The directory (`.` when none is given) and the last component of `path`.
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// The C library's `write(2)`, which `ReportWriter.write(_:to:)` shadows inside the type.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
