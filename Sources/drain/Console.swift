#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import DrainPipeline

/// Standard output and error for the CLI: whole texts, newline-terminated, written with
/// `write(2)` so nothing is buffered behind an exit.
enum Console {
    static func standardOutput(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    static func standardError(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Prints `drain: error: MESSAGE` on standard error.
    static func error(_ message: String) {
        standardError("drain: error: \(message)")
    }

    /// A progress meter on standard error for an input larger than
    /// `ProgressMeter.minimumBytes`, or `nil` for smaller inputs and non-files.
    static func progressMeter(for path: String) -> InputProgress? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
            Int64(status.st_size) >= ProgressMeter.minimumBytes
        else { return nil }
        let meter = ProgressMeter(
            name: path, totalBytes: Int64(status.st_size), now: monotonicSeconds, write: { write($0, to: STDERR_FILENO, newline: false) })
        return InputProgress(update: { meter.update(bytesRead: $0) }, finish: { meter.finish() })
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static func write(_ text: String, to descriptor: Int32, newline: Bool = true) {
        var bytes = !newline || text.hasSuffix("\n") ? text : text + "\n"
        bytes.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// The C library's `write(2)`, which `Console.write(_:to:)` shadows inside the type.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
