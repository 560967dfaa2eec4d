#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import DrainImport
import DrainTrace
import DrainTraceWriter

/// Why `drain record` could not record. Each case has the exit status the CLI uses; they
/// are documented in docs/recorder.md.
public enum RecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Bad usage (64): no command, an interval out of range, an unknown interface.
    case usage(String)
    /// The command was not found on `PATH` (127, as in a shell).
    case commandNotFound(String)
    /// The command exists but cannot be run (126, as in a shell).
    case commandNotExecutable(String, reason: String)
    /// `--strace` was asked for and `strace` is not on `PATH` (69, EX_UNAVAILABLE).
    case straceMissing
    /// `--capture` without the privileges to capture (77, EX_NOPERM).
    case capturePermissionDenied(interface: String, message: String)
    /// libpcap could not capture on the interface for another reason (69).
    case captureFailed(interface: String, message: String)
    /// The trace or capture file could not be written (73, EX_CANTCREAT).
    case cannotWrite(path: String, reason: String)
    /// The strace log of the run could not be read back (65).
    case straceImport(ImportError)
    /// A system call the recorder needs failed (71, EX_OSERR).
    case system(call: String, reason: String)

    public var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .commandNotFound: 127
        case .commandNotExecutable: 126
        case .straceMissing, .captureFailed: 69
        case .capturePermissionDenied: 77
        case .cannotWrite: 73
        case .straceImport: 65
        case .system: 71
        }
    }

    public var description: String {
        switch self {
        case .usage(let message): message
        case .commandNotFound(let command): "\(UntrustedText.quoted(command, limit: nil)): command not found"
        case .commandNotExecutable(let command, let reason): "\(UntrustedText.quoted(command, limit: nil)): cannot run: \(reason)"
        case .straceMissing: "--strace needs strace, which is not on PATH (install it, e.g. 'apt-get install strace')"
        case .capturePermissionDenied(let interface, let message):
            "--capture \(UntrustedText.quoted(interface, limit: nil)): no permission to capture packets (\(message)); run as root or grant CAP_NET_RAW and CAP_NET_ADMIN, e.g. 'sudo setcap cap_net_raw,cap_net_admin=eip $(command -v drain)'"
        case .captureFailed(let interface, let message): "--capture \(UntrustedText.quoted(interface, limit: nil)): \(message)"
        case .cannotWrite(let path, let reason): "cannot write \(UntrustedText.quoted(path, limit: nil)): \(reason)"
        case .straceImport(let error): "reading the strace log of the run: \(error.description)"
        case .system(let call, let reason): "\(call) failed: \(reason)"
        }
    }

    /// The text of an `errno` value.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
#endif
