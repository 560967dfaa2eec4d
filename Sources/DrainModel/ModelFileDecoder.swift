import DrainTrace
import Yams

/// A choice spelled as text in a model file (`default_link: wifi`), with the spellings that are
/// allowed, for the error message.
protocol ModelFileChoice: CaseIterable, RawRepresentable where RawValue == String {}

extension DeviceModel.CellularTechnology: ModelFileChoice {}
extension DeviceModel.DefaultLink: ModelFileChoice {}

/// A strict `Decoder` over a composed YAML document, for model files.
///
/// Unlike a general-purpose decoder it rejects what a model file must not contain: keys the
/// type does not declare (its `CodingKeys` are `CaseIterable`, so the expected keys can be
/// listed), numbers without a source or with an empty one, negative or non-finite numbers,
/// quoted numbers, lists. Every failure is a `ModelFileIssue` with the key path and the
/// node's line and column. O(nodes).
struct ModelFileDecoder: Decoder {
    let node: Node
    let path: [String]

    var codingPath: [any CodingKey] { path.map(ModelFileKey.init(stringValue:)) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes a whole document.
    static func decode<T: Decodable>(_ type: T.Type, from root: Node) throws(ModelFileIssue) -> T {
        do {
            return try ModelFileDecoder(node: root, path: []).decodeValue(T.self)
        } catch let issue as ModelFileIssue {
            throw issue
        } catch {
            // Only stdlib conformances the model does not use could throw anything else.
            throw ModelFileIssue(.invalidValue, at: [], String(describing: error))
        }
    }

    func child(_ node: Node, key: String) -> ModelFileDecoder {
        ModelFileDecoder(node: node, path: path + [key])
    }

    func issue(_ problem: ModelError.Problem, _ message: String, key: String? = nil, mark: Mark? = nil) -> ModelFileIssue {
        ModelFileIssue(problem, at: key.map { path + [$0] } ?? path, mark: mark ?? node.mark, message)
    }

    /// Decodes this node as `T`, with the checks model values need.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Sourced.self, let sourced = try decodeSourced() as? T { return sourced }
        if T.self == Double.self, let number = try decodeNumber() as? T { return number }
        if T.self == String.self, let text = try decodeText() as? T { return text }
        if let choice = T.self as? any ModelFileChoice.Type, let value = try decodeChoice(choice) as? T { return value }
        return try T(from: self)
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let mapping) = node else {
            throw issue(.wrongType, "expected a mapping of keys to values, found \(node.kindDescription)")
        }
        let expected = (Key.self as? any CaseIterable.Type).map { Self.keyNames($0) }
        var entries: [String: Node] = [:]
        var order: [String] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw issue(.wrongType, "keys must be plain text, found \(keyNode.kindDescription)", mark: keyNode.mark)
            }
            let key = scalar.string
            if let expected, !expected.contains(key) {
                throw issue(
                    .unknownKey, "unknown key (expected one of \(expected.joined(separator: ", ")))", key: key,
                    mark: keyNode.mark)
            }
            entries[key] = value
            order.append(key)
        }
        return KeyedDecodingContainer(ModelFileMappingContainer<Key>(decoder: self, entries: entries, order: order))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw issue(.wrongType, "lists are not part of the model format, found \(node.kindDescription)")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ModelFileScalarContainer(decoder: self)
    }

    // MARK: Values

    private func decodeSourced() throws -> Sourced {
        if case .scalar = node, !node.isNull {
            throw issue(.missingSource, "a number needs its source: write { value: \(node.scalarText), source: \"…\" }")
        }
        let container = try container(keyedBy: Sourced.CodingKeys.self)
        let value = try container.decode(Double.self, forKey: .value)
        guard container.contains(.source), try !container.decodeNil(forKey: .source) else {
            throw issue(.missingSource, "missing source: every number says where it comes from", key: "source")
        }
        let source = try container.decode(String.self, forKey: .source)
        guard source.contains(where: { !$0.isWhitespace }) else {
            throw issue(.missingSource, "empty source: every number says where it comes from", key: "source",
                        mark: node.mapping?["source"]?.mark)
        }
        return Sourced(value, source: source)
    }

    func decodeNumber() throws -> Double {
        guard !node.isNull else { throw issue(.missingValue, "missing required number") }
        guard case .scalar(let scalar) = node else {
            throw issue(.wrongType, "expected a number, found \(node.kindDescription)")
        }
        guard let number = Double.construct(from: scalar) else {
            throw issue(.wrongType, "expected a number, found \(scalar.quotedText)")
        }
        guard number.isFinite else { throw issue(.invalidValue, "the number must be finite, found \(scalar.string)") }
        guard number >= 0 else { throw issue(.negativeValue, "must not be negative, found \(scalar.string)") }
        return number
    }

    func decodeText() throws -> String {
        guard !node.isNull else { throw issue(.missingValue, "missing required value") }
        guard case .scalar(let scalar) = node else {
            throw issue(.wrongType, "expected text, found \(node.kindDescription)")
        }
        return scalar.string
    }

    private func decodeChoice<Choice: ModelFileChoice>(_ type: Choice.Type) throws -> Choice {
        let text = try decodeText()
        guard let choice = Choice(rawValue: text) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw issue(.invalidValue, "unknown value \(UntrustedText.quoted(text)) (expected one of \(allowed))")
        }
        return choice
    }

    private static func keyNames<Keys: CaseIterable>(_ type: Keys.Type) -> [String] {
        Keys.allCases.compactMap { ($0 as? any CodingKey)?.stringValue }
    }
}

/// A key of a coding path that is only known by its name.
struct ModelFileKey: CodingKey {
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

    var kindDescription: String {
        switch self {
        case .scalar(let scalar): isNull ? "nothing" : scalar.quotedText
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    fileprivate var scalarText: String { scalar.map { UntrustedText.escaped($0.string) } ?? "" }
}

extension Node.Scalar {
    /// The scalar as it could be quoted in a message: escaped and shortened.
    var quotedText: String { UntrustedText.quoted(string) }
}
