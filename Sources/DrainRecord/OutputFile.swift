#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// A file written under a temporary name beside its final path and renamed into place
/// only when complete, so a failed or interrupted recording never leaves a half-written
/// trace or capture under the name the user asked for.
struct OutputFile {
    let path: String
    let temporaryPath: String
    let descriptor: Int32

    /// Creates `.<name>.XXXXXX` in the directory of `path`.
    init(path: String) throws(RecordError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: RecordError.reason(errno)) }
        // Not inherited by the command; the permissions a plain create would give.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        self.path = path
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.descriptor = descriptor
    }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(RecordError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(path: path, reason: RecordError.reason(errno))
            }
            offset += written
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

    /// Closes the file and renames it to `path`.
    func commit() throws(RecordError) {
        guard close(descriptor) == 0 else {
            let reason = RecordError.reason(errno)
            unlink(temporaryPath)
            throw .cannotWrite(path: path, reason: reason)
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = RecordError.reason(errno)
            unlink(temporaryPath)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// Closes and deletes the temporary file.
    func discard() {
        close(descriptor)
        unlink(temporaryPath)
    }
}
#endif
