import Yams

/// The keyed container of `YAMLNodeDecoder`: one mapping, whose keys the type asks about.
///
/// The generic `decode` also serves the primitive overloads the protocol requires (`Bool`,
/// `Int`…), so every value goes through `YAMLNodeDecoder.decodeValue` and its checks.
struct YAMLMappingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: YAMLNodeDecoder
    let entries: [String: Node]
    /// Keys in document order, for `allKeys` (a dictionary, or a type with keys of its own
    /// making, walks them in the file's order).
    let order: [String]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { order.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        decoder.askedKeys.insert(key.stringValue)
        return entries[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.askedKeys.insert(key.stringValue)
        return entries[key.stringValue]?.isNull ?? true
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

    private func childDecoder(for key: Key) throws -> YAMLNodeDecoder {
        decoder.askedKeys.insert(key.stringValue)
        guard let node = entries[key.stringValue], !node.isNull else {
            throw decoder.error(.missingValue, "missing required value", key: key.stringValue)
        }
        return decoder.child(node, key: key.stringValue)
    }
}

/// The unkeyed container of `YAMLNodeDecoder`: one list, its items named by index in key paths.
struct YAMLSequenceContainer: UnkeyedDecodingContainer {
    let decoder: YAMLNodeDecoder
    let items: [Node]
    private(set) var currentIndex = 0

    init(decoder: YAMLNodeDecoder, items: [Node]) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decodeValue(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }

    private mutating func next() throws -> YAMLNodeDecoder {
        guard !isAtEnd else {
            throw decoder.error(.missingValue, "expected another item after the \(items.count) in the list")
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key: String(currentIndex))
    }
}

/// The single-value container of `YAMLNodeDecoder`: a number, boolean or text read with the
/// same checks as a keyed value; any other type decodes itself from the same node.
struct YAMLScalarContainer: SingleValueDecodingContainer {
    let decoder: YAMLNodeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.node.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let value = try decoder.decodeScalar(T.self) else {
            return try decoder.decodeValue(T.self)
        }
        return value
    }
}
