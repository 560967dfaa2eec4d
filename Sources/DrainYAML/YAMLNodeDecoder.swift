import DrainTrace
import Yams

/// The `Decoder` over one node of a document, for `StrictYAMLDecoder`.
final class YAMLNodeDecoder: Decoder {
    let node: Node
    let path: [String]
    /// The keys of this node's mapping that the type asked about, for the check that no
    /// other key was given.
    var askedKeys: Set<String> = []
    /// The key types this node's mapping was opened with (`container(keyedBy:)`), in order,
    /// until `checkListedKeys` has checked the mapping against the ones that list their keys.
    private var keyTypes: [any CodingKey.Type] = []
    /// How many `decodeValue` calls on this node are running: a mapping opened outside one
    /// (a nested container, a super decoder) is checked against its key type at once.
    private var valuesDecoding = 0

    init(node: Node, path: [String]) {
        self.node = node
        self.path = path
    }

    var codingPath: [any CodingKey] { path.map(YAMLKey.init(stringValue:)) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func child(_ node: Node, key: String) -> YAMLNodeDecoder {
        YAMLNodeDecoder(node: node, path: path + [key])
    }

    func error(_ kind: YAMLError.Kind, _ message: String, key: String? = nil, markingKey: Bool = false) -> YAMLError {
        var mark = node.mark
        if let key, let mapping = node.mapping,
            let entry = mapping.first(where: { $0.key.scalar?.string == key })
        {
            mark = (markingKey ? entry.key.mark : entry.value.mark) ?? mark
        }
        return YAMLError(kind, keyPath: path + (key.map { [$0] } ?? []), line: mark?.line, column: mark?.column, message)
    }

    /// Decodes this node as `T`, with the strict checks of scalars, then checks that a
    /// mapping decoded by `T(from:)` held no key it did not ask about.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = try decodeScalar(T.self) { return value }
        let value: T
        do {
            valuesDecoding += 1
            defer { valuesDecoding -= 1 }
            value = try T(from: self)
        } catch {
            // A key its type does not have is the first error of a mapping, as if it had been
            // refused when the mapping was opened.
            try checkListedKeys()
            // A `String` enum's own `init(from:)` only says its raw value is unknown; the
            // allowed values come from `CaseIterable`, looked up here on the error path only:
            // a dynamic conformance check scans the binary's conformance tables, and doing it
            // for every decoded type cost each run a millisecond and a half.
            if let failure = error as? DecodingError, case .dataCorrupted = failure,
                let choice = T.self as? any (CaseIterable & RawRepresentable<String>).Type
            {
                _ = try decodeChoice(choice)
            }
            throw error
        }
        if case .mapping(let mapping) = node,
            mapping.contains(where: { key, _ in key.scalar.map { !askedKeys.contains($0.string) } ?? false })
        {
            try checkListedKeys()
            for (key, _) in mapping {
                guard let name = key.scalar?.string, !askedKeys.contains(name) else { continue }
                let expected = askedKeys.isEmpty ? "" : " (expected one of \(askedOrder(mapping).joined(separator: ", ")))"
                throw error(.unknownKey, "unknown key\(expected)", key: name, markingKey: true)
            }
        }
        return value
    }

    /// Refuses the first key of the mapping (in document order, before entry `limit`) that a
    /// key type of `keyTypes` listing its keys (`CaseIterable`) does not have, naming the keys
    /// it has; then counts those keys as asked, so that a key the type reads only sometimes is
    /// not refused when it went unread.
    ///
    /// Whether a key type lists its keys is a dynamic conformance check, which scans the
    /// binary's conformance records once per type: done for every mapping opened, it was a
    /// millisecond of each run's model load. So it is done only when a key went unread or
    /// decoding failed, where the error it gives is the one a check on opening would have.
    private func checkListedKeys(of types: [any CodingKey.Type]? = nil, before limit: Int? = nil) throws {
        guard case .mapping(let mapping) = node else { return }
        for keyType in types ?? keyTypes {
            guard let listed = keyType as? any CaseIterable.Type else { continue }
            let expected = Self.keyNames(listed)
            for (keyNode, _) in mapping.prefix(limit ?? mapping.count) {
                guard let key = keyNode.scalar?.string, !expected.contains(key) else { continue }
                throw error(.unknownKey, "unknown key (expected one of \(expected.joined(separator: ", ")))", key: key, markingKey: true)
            }
            askedKeys.formUnion(expected)
        }
        if types == nil { keyTypes = [] }
    }

    /// The asked keys in document order, then the others.
    private func askedOrder(_ mapping: Node.Mapping) -> [String] {
        let present = mapping.compactMap { $0.key.scalar?.string }.filter(askedKeys.contains)
        return present + askedKeys.subtracting(present).sorted()
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let mapping) = node else {
            throw error(.wrongType, "expected a mapping of keys to values, found \(node.kindDescription)")
        }
        var entries: [String: Node] = [:]
        var order: [String] = []
        for (position, (keyNode, value)) in mapping.enumerated() {
            guard case .scalar(let scalar) = keyNode else {
                // An unknown key before it comes first, as the keys are read in order.
                try checkListedKeys(of: [Key.self], before: position)
                throw YAMLError(
                    .wrongType, keyPath: path, line: keyNode.mark?.line, column: keyNode.mark?.column,
                    "keys must be plain text, found \(keyNode.kindDescription)")
            }
            entries[scalar.string] = value
            order.append(scalar.string)
        }
        if valuesDecoding > 0 {
            keyTypes.append(Key.self)
        } else {
            try checkListedKeys(of: [Key.self])
        }
        return KeyedDecodingContainer(YAMLMappingContainer<Key>(decoder: self, entries: entries, order: order))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .sequence(let sequence) = node else {
            throw error(.wrongType, "expected a list, found \(node.kindDescription)")
        }
        return YAMLSequenceContainer(decoder: self, items: Array(sequence))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        YAMLScalarContainer(decoder: self)
    }

    // MARK: Scalars

    /// `T` read from a scalar when `T` is a number, a boolean or text; `nil` for other types.
    func decodeScalar<T>(_ type: T.Type) throws -> T? {
        switch T.self {
        case is Double.Type: return try decodeNumber() as? T
        case is Float.Type: return try Float(decodeNumber()) as? T
        case is Int.Type: return try decodeInteger(Int.self) as? T
        case is Int64.Type: return try decodeInteger(Int64.self) as? T
        case is Int32.Type: return try decodeInteger(Int32.self) as? T
        case is UInt.Type: return try decodeInteger(UInt.self) as? T
        case is UInt64.Type: return try decodeInteger(UInt64.self) as? T
        case is Bool.Type: return try decodeBool() as? T
        case is String.Type: return try decodeText() as? T
        default: return nil
        }
    }

    func decodeNumber() throws -> Double {
        let scalar = try requireScalar("a number")
        guard node.hasTag(.int) || node.hasTag(.float), let number = Double.construct(from: scalar) else {
            throw error(.wrongType, "expected a number, found \(node.kindDescription)")
        }
        guard number.isFinite else { throw error(.invalidValue, "the number must be finite, found \(scalar.string)") }
        return number
    }

    private func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let number = try decodeNumber()
        guard number.rounded() == number, let integer = I(exactly: number) else {
            throw error(.invalidValue, "expected a whole number from \(I.min) to \(I.max), found \(node.scalar?.string ?? "")")
        }
        return integer
    }

    private func decodeBool() throws -> Bool {
        _ = try requireScalar("true or false")
        guard node.hasTag(.bool), let value = node.bool else {
            throw error(.wrongType, "expected true or false, found \(node.kindDescription)")
        }
        return value
    }

    func decodeText() throws -> String {
        try requireScalar("text").string
    }

    private func requireScalar(_ expected: String) throws -> Node.Scalar {
        guard !node.isNull else { throw error(.missingValue, "missing required value") }
        guard case .scalar(let scalar) = node else {
            throw error(.wrongType, "expected \(expected), found \(node.kindDescription)")
        }
        return scalar
    }

    /// A `String` enum that is `CaseIterable`: one of its raw values, or an error listing them.
    private func decodeChoice<Choice: CaseIterable & RawRepresentable<String>>(_ type: Choice.Type) throws -> Choice {
        let text = try decodeText()
        guard let choice = Choice(rawValue: text) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(.invalidValue, "unknown value \(UntrustedText.quoted(text)) (expected one of \(allowed))")
        }
        return choice
    }

    private static func keyNames<Keys: CaseIterable>(_ type: Keys.Type) -> [String] {
        Keys.allCases.compactMap { ($0 as? any CodingKey)?.stringValue }
    }
}

/// A key of a coding path that is only known by its name.
struct YAMLKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Node {
    /// Whether the node is YAML null (`~`, `null` or nothing), which counts as a missing value.
    var isNull: Bool {
        guard case .scalar(let scalar) = self, scalar.style == .any || scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// Whether the node is a scalar of a YAML core type: an explicit tag's (`!!int 3`; quoted
    /// scalars carry `str`, so `"3"` is text), or, untagged, what its text reads as
    /// (`PlainScalarType`: an unquoted `3` is an int). Reads the tag as the parser left it:
    /// resolving it would ask the document's resolver, which has no patterns.
    func hasTag(_ name: Tag.Name) -> Bool {
        guard case .scalar(let scalar) = self else { return false }
        let given = scalar.tag.rawValue
        guard given == Tag.Name.implicit.rawValue else { return given == name.rawValue }
        switch PlainScalarType(scalar.string) {
        case .bool: return name == .bool
        case .int: return name == .int
        case .float: return name == .float
        case .other: return false
        }
    }

    var kindDescription: String {
        switch self {
        case .scalar(let scalar): isNull ? "nothing" : UntrustedText.quoted(scalar.string)
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}
