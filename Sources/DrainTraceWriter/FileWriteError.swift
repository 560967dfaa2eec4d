#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an `AtomicFile` could not be written: the file's final path, the step that failed
/// and the system's error number.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step that failed.
    public enum Operation: String, Sendable, Equatable {
        /// Creating the temporary file.
        case createFile = "create"
        /// Writing (or closing, which can report a failed write).
        case write
        /// Flushing the file to disk.
        case sync
        /// Renaming the temporary file to the final path.
        case rename
    }

    /// The path the file was to have.
    public var path: String
    public var operation: Operation
    /// `errno`.
    public var code: Int32

    public init(path: String, operation: Operation, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// The system's text for `code`, e.g. `No space left on device`.
    public var reason: String { String(cString: strerror(code)) }

    /// E.g. `cannot write /tmp/out.jsonl: No space left on device`.
    public var description: String { "cannot \(operation.rawValue) \(path): \(reason)" }
}
