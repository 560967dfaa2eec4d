import DrainTrace

/// Why a YAML document was refused: what kind of problem, where (the key path from the root
/// and the node's 1-based line and column) and a sentence for people.
///
/// `description` reads `12:5: radio.lte.tail_s: unknown key (expected one of …)`; a loader
/// puts its file name in front.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem. Loaders add kinds of their own (`Kind("missingSource")`) for the
    /// checks their types make while decoding.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Not YAML, or YAML this decoder refuses (duplicate keys, anchors and aliases).
        public static let syntax = Kind("syntax")
        /// Not text: bytes the YAML reader cannot decode.
        public static let unreadable = Kind("unreadable")
        /// A key the type does not have.
        public static let unknownKey = Kind("unknownKey")
        /// A required key is absent or null.
        public static let missingValue = Kind("missingValue")
        /// A value of the wrong type: text where a number is expected, a list for a mapping…
        public static let wrongType = Kind("wrongType")
        /// A value of the right type that cannot be used: an unknown choice, an infinite number.
        public static let invalidValue = Kind("invalidValue")
    }

    public var kind: Kind
    /// Key names from the root to the offending value (list items by their index).
    public var keyPath: [String]
    /// 1-based line and column of the offending node, when known.
    public var line: Int?
    public var column: Int?
    /// A sentence for people, without the position and key path.
    public var message: String

    public init(_ kind: Kind, keyPath: [String] = [], line: Int? = nil, column: Int? = nil, _ message: String) {
        self.kind = kind
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.message = message
    }

    /// `radio.lte.tail_s`, with control characters of the file's keys escaped; empty at the root.
    public var dottedKeyPath: String {
        keyPath.map(UntrustedText.escaped).joined(separator: ".")
    }

    public var description: String {
        var parts: [String] = []
        if let line { parts.append(column.map { "\(line):\($0)" } ?? "\(line)") }
        if !keyPath.isEmpty { parts.append(dottedKeyPath) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
