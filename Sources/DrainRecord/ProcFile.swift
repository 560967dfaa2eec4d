#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// A `/proc` file kept open and re-read with `pread` at offset 0, which makes the kernel
/// generate its text afresh: one system call per sample and no `open` or allocation.
struct ProcFile {
    private(set) var descriptor: Int32

    /// Opens `path` read-only; nil when it does not exist (the process is gone) or may not
    /// be read.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Reads the whole file into `buffer` (which must be larger than the file; `/proc`
    /// stat, status and io texts are a few kB) and calls `body` with the bytes read. Nil when
    /// the read fails, as it does once the process has been reaped.
    func read<Result>(into buffer: UnsafeMutableRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        var total = 0
        while total < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + total, buffer.count - total, off_t(total))
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            total += count
        }
        guard total > 0 else { return nil }
        return body(UnsafeRawBufferPointer(rebasing: buffer[0..<total]))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
#endif
