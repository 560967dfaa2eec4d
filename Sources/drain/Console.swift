#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and error for the CLI: whole texts, newline-terminated.
enum Console {
    static func standardOutput(_ text: String) {
        write(text, to: stdout)
    }

    static func standardError(_ text: String) {
        write(text, to: stderr)
    }

    /// Prints `drain: error: MESSAGE` on standard error.
    static func error(_ message: String) {
        standardError("drain: error: \(message)")
    }

    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static func write(_ text: String, to stream: UnsafeMutablePointer<FILE>) {
        fputs(text.hasSuffix("\n") ? text : text + "\n", stream)
        fflush(stream)
    }
}
