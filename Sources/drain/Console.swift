#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = text.hasSuffix("\n") ? text : text + "\n"
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
