#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to file descriptors.
public enum FileIO {
    /// Writes all of `bytes` to `descriptor`, resuming after short writes and after writes
    /// interrupted by a signal (`EINTR`). Returns how many bytes were written, and 0 or the
    /// `errno` of the failure (`EIO` when `write` makes no progress). O(bytes).
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> (written: Int, code: Int32) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        var done = 0
        while done < bytes.count {
            let result = write(descriptor, base + done, bytes.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return (done, errno)
            }
            if result == 0 { return (done, EIO) }
            done += result
        }
        return (done, 0)
    }
}
