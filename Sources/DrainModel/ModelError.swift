import DrainYAML

/// Why a device model could not be loaded: the file, the place in it and the key path.
///
/// `description` reads `models/x.yaml:12:5: radio.lte.promotoin_s: unknown key (expected one
/// of …)`; each part is left out when it is not known.
public struct ModelError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of problem it is, for callers and tests that need more than the message.
    public enum Problem: String, Sendable, Equatable {
        /// The name is neither a built-in model nor a readable file.
        case unknownModel
        /// The file could not be read or is not UTF-8.
        case unreadable
        /// The file is larger than a model file may be (`ModelCatalog.maximumFileBytes`).
        case tooLarge
        /// The YAML itself is malformed (including duplicate keys).
        case syntax
        /// A key that the model format does not have.
        case unknownKey
        /// A required key is absent or null.
        case missingValue
        /// A number is below zero.
        case negativeValue
        /// A number has no `source`, or an empty one.
        case missingSource
        /// A value has the wrong type: text where a number is expected, a list where a
        /// mapping is expected…
        case wrongType
        /// A value of the right type that the model cannot use: an unknown choice, an infinite
        /// number, a zero cycle length, parameters that contradict each other.
        case invalidValue
    }

    /// The file path as given, or `built-in model NAME`.
    public var file: String
    /// 1-based line and column of the offending node, when known.
    public var line: Int?
    public var column: Int?
    /// Dotted key path of the offending value (`radio.lte.promotion_s`), when there is one.
    public var keyPath: String?
    public var problem: Problem
    /// A sentence for people, without the file and key path.
    public var message: String

    public init(
        file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil, problem: Problem, message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.problem = problem
        self.message = message
    }

    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let keyPath, !keyPath.isEmpty { text += ": \(keyPath)" }
        return text + ": " + message
    }
}

extension ModelError {
    /// A model file's YAML or decoding error: the kinds DrainYAML reports and those
    /// `Sourced` adds share the names of `Problem`.
    init(_ error: YAMLError, file: String) {
        self.init(
            file: file, line: error.line, column: error.column, keyPath: error.dottedKeyPath,
            problem: Problem(rawValue: error.kind.rawValue) ?? .invalidValue, message: error.message)
    }
}
