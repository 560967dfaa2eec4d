/// Why a `--config` file was rejected, with the file and, where known, the line and column.
public struct RuleConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The file cannot be read or is not UTF-8 text.
        case unreadable
        /// The file is larger than `RuleConfiguration.maximumFileBytes`.
        case tooLarge
        /// Not valid YAML.
        case syntax
        /// YAML, but not shaped like a rule configuration (a key other than `rules`, a list
        /// where settings belong…).
        case structure
        case unknownRule
        case unknownParameter
        /// A parameter that is not a finite number ≥ 0, or `enabled` that is not a boolean.
        case invalidValue
    }

    public var kind: Kind
    public var path: String
    /// 1-based line and column of the offending node, when the YAML parser reports one.
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(_ kind: Kind, path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// Whether the file could not be read at all (as opposed to read and rejected), for
    /// callers that map the two to different exit codes.
    public var isUnreadable: Bool { kind == .unreadable }

    /// `path:line:column: message`, the way compilers report a position.
    public var description: String {
        var position = path
        if let line {
            position += ":\(line)"
            if let column { position += ":\(column)" }
        }
        return "\(position): \(message)"
    }
}
