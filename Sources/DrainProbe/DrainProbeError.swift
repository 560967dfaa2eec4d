#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a probe could not open its trace, or stopped writing it.
public struct DrainProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the probe was doing.
    public enum Operation: String, Sendable, Equatable {
        /// Opening (creating or truncating) the trace file, or writing its header.
        case open
        /// Writing buffered events.
        case write
        /// Closing the file.
        case close
        /// Starting the memory-sampling thread.
        case startSampling = "start sampling"
    }

    public var operation: Operation
    /// The trace file's path.
    public var path: String
    /// The system's error number (`errno`).
    public var code: Int32

    public init(operation: Operation, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// E.g. `cannot open trace /tmp/x/app.jsonl: No such file or directory`.
    public var description: String {
        let reason = String(cString: strerror(code))
        switch operation {
        case .startSampling: return "cannot start memory sampling for trace \(path): \(reason)"
        default: return "cannot \(operation.rawValue) trace \(path): \(reason)"
        }
    }
}
