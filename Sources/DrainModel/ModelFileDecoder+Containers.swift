import Yams

/// The keyed container of `ModelFileDecoder`: one YAML mapping whose keys were already checked
/// against the expected ones.
///
/// The generic `decode` also serves the primitive overloads the protocol requires (`Bool`,
/// `Int`…), so every value goes through `ModelFileDecoder.decodeValue` and its checks.
struct ModelFileMappingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ModelFileDecoder
    let entries: [String: Node]
    /// Keys in document order, for `allKeys` (used when decoding a dictionary).
    let order: [String]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { order.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        entries[key.stringValue]?.isNull ?? true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try childDecoder(for: key).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { try childDecoder(for: key) }

    private func childDecoder(for key: Key) throws -> ModelFileDecoder {
        guard let node = entries[key.stringValue], !node.isNull else {
            throw decoder.issue(.missingValue, "missing required value", key: key.stringValue)
        }
        return decoder.child(node, key: key.stringValue)
    }
}

/// The single-value container of `ModelFileDecoder`: a scalar read as a number, text or one of
/// the types Yams can construct from a scalar. Anything else is refused rather than decoded
/// with `T(from:)`, which for a primitive would ask this container again.
struct ModelFileScalarContainer: SingleValueDecodingContainer {
    let decoder: ModelFileDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.node.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Double.self, let number = try decoder.decodeNumber() as? T { return number }
        if T.self == String.self, let text = try decoder.decodeText() as? T { return text }
        guard let scalarType = T.self as? any ScalarConstructible.Type else {
            throw decoder.issue(.wrongType, "\(T.self) cannot be read from a single YAML value")
        }
        guard !decoder.node.isNull else { throw decoder.issue(.missingValue, "missing required value") }
        guard case .scalar(let scalar) = decoder.node, let value = scalarType.construct(from: scalar) as? T else {
            throw decoder.issue(.wrongType, "expected \(T.self), found \(decoder.node.kindDescription)")
        }
        return value
    }
}
