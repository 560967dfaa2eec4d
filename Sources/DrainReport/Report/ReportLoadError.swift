import DrainTrace

/// Why a saved report could not be loaded, with the exit code the command line uses.
public struct ReportLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// The file cannot be read (`errno` text).
        case unreadable(String)
        /// The file holds more than `Report.maximumFileBytes`.
        case tooLarge(size: Int64, limit: Int)
        /// Not JSON; the position of the first error, 1-based, when known.
        case malformedJSON(line: Int?, column: Int?, reason: String)
        /// JSON, but not a Drain report (no `schema_version`, or not an object).
        case notAReport(String)
        /// A Drain report of a schema this build does not read.
        case unsupportedSchema(Int)
        /// A Drain report of this schema with a missing or mistyped value at `path`.
        case invalid(path: String, reason: String)
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// sysexits(3): 66 when the file cannot be read, else 65 (bad data).
    public var exitCode: Int32 {
        if case .unreadable = problem { 66 } else { 65 }
    }

    public var description: String {
        switch problem {
        case let .unreadable(reason):
            return "\(path): cannot read the report: \(reason)"
        case let .tooLarge(size, limit):
            return "\(path): the file has \(size) bytes; a Drain report has at most \(BoundedFileRead.describe(limit: limit))"
        case let .malformedJSON(line?, column?, reason):
            return "\(path):\(line):\(column): not valid JSON: \(reason)"
        case let .malformedJSON(_, _, reason):
            return "\(path): not valid JSON: \(reason)"
        case let .notAReport(reason):
            return "\(path): not a Drain report: \(reason)"
        case let .unsupportedSchema(version):
            return "\(path): a Drain report of schema_version \(version); this build of Drain reads schema_version "
                + "\(Report.currentSchemaVersion) (analyse the inputs again with this version)"
        case let .invalid(keyPath, reason):
            return "\(path): invalid Drain report at \(keyPath): \(reason)"
        }
    }
}
