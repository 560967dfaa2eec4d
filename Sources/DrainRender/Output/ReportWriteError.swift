import DrainTraceWriter

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a report file could not be written. Nothing is left behind when this is thrown: the
/// target keeps its old content (or stays absent) and no temporary file remains.
public struct ReportWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step that failed.
    public enum Operation: String, Sendable {
        case createDirectory = "creating the directory"
        case createFile = "creating a temporary file beside it"
        case write = "writing"
        case sync = "flushing it to disk"
        case rename = "moving it into place"
        case invalidName = "choosing the file name"
    }

    /// The file (or directory) the caller asked for.
    public var path: String
    public var operation: Operation
    /// The `errno` value of the failure.
    public var code: Int32
    /// The system's text for `code`, e.g. `No such file or directory`.
    public var reason: String

    public init(path: String, operation: Operation, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
        reason = String(cString: strerror(code))
    }

    /// The same failure reported by `AtomicFile`.
    init(_ error: FileWriteError) {
        let operation: Operation =
            switch error.operation {
            case .createFile: .createFile
            case .write: .write
            case .sync: .sync
            case .rename: .rename
            }
        self.init(path: error.path, operation: operation, code: error.code)
    }

    public var description: String {
        "cannot write \(path): \(reason) (while \(operation.rawValue))"
    }
}
