#if canImport(Glibc)
import Glibc
#endif

/// The file the harnesses that need a path (libpcap opens captures by name) write each input
/// to. It is created and unlinked at once, and named through `/proc/self/fd`, so a run that
/// crashes or is killed leaves nothing behind, and each fuzzing process has its own.
final class ScratchFile: @unchecked Sendable {
    static let shared = ScratchFile()

    private let descriptor: Int32
    private let path: String

    private init() {
        let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(directory)/drain-fuzz-XXXXXX".utf8CString)
        descriptor = mkstemp(&template)
        precondition(descriptor >= 0, "drain-fuzz: cannot create a scratch file in \(directory)")
        unlink(&template)
        path = "/proc/self/fd/\(descriptor)"
    }

    /// Replaces the file's content with `bytes`; returns the path to open it by.
    func write(_ bytes: [UInt8]) -> String {
        precondition(ftruncate(descriptor, 0) == 0, "drain-fuzz: cannot truncate the scratch file")
        var written = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(written))
                precondition(count > 0, "drain-fuzz: cannot write the scratch file")
                written += count
            }
        }
        return path
    }
}
