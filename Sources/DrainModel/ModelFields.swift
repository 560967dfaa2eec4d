/// One value of a device model with its key path, in the order of the model format.
struct ModelField: Equatable {
    enum Value: Equatable {
        case number(Sourced)
        case text(String)
    }

    /// Key names from the root: `["radio", "lte", "promotion_s"]`.
    var path: [String]
    var value: Value
}

extension DeviceModel {
    /// Every value of the model with its file key path, in declaration order, found by encoding
    /// the model (so through the same `CodingKeys` as the file format). Rule thresholds are left
    /// out: they are a dictionary without a stable order; read `thresholds` for them.
    var fields: [ModelField] {
        var copy = self
        copy.thresholds = nil
        let collector = ModelFieldCollector()
        // Encoding into the collector cannot fail: every container it hands out accepts any value.
        try? copy.encode(to: ModelFieldEncoder(collector: collector, path: []))
        return collector.fields
    }
}

/// Where `ModelFieldEncoder` puts the fields it meets; a class because encoders and their
/// containers are values passed down the tree.
final class ModelFieldCollector {
    var fields: [ModelField] = []
}

/// An `Encoder` that flattens a model into `ModelField`s: a `Sourced` becomes a number, a
/// string or a text choice becomes text, anything else is walked into.
struct ModelFieldEncoder: Encoder {
    let collector: ModelFieldCollector
    let path: [String]

    var codingPath: [any CodingKey] { path.map(ModelFieldKey.init(stringValue:)) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ModelFieldKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ModelFieldUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ModelFieldSingleValueContainer(encoder: self)
    }

    func record<T: Encodable>(_ value: T, at path: [String]) throws {
        switch value {
        case let sourced as Sourced:
            collector.fields.append(ModelField(path: path, value: .number(sourced)))
        case let text as String:
            collector.fields.append(ModelField(path: path, value: .text(text)))
        case let choice as any RawRepresentable<String>:
            collector.fields.append(ModelField(path: path, value: .text(choice.rawValue)))
        default:
            try value.encode(to: ModelFieldEncoder(collector: collector, path: path))
        }
    }
}

/// The generic `encode` also serves the protocol's primitive overloads.
struct ModelFieldKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ModelFieldEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.record(value, at: encoder.path + [key.stringValue])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        ModelFieldEncoder(collector: encoder.collector, path: encoder.path + [key.stringValue]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ModelFieldEncoder(collector: encoder.collector, path: encoder.path + [key.stringValue]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ModelFieldEncoder(collector: encoder.collector, path: encoder.path + [key.stringValue])
    }
}

/// Lists are not part of the model format; their elements are recorded under their index.
struct ModelFieldUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ModelFieldEncoder
    private(set) var count = 0

    init(encoder: ModelFieldEncoder) { self.encoder = encoder }

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { count += 1 }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.record(value, at: encoder.path + [String(count)])
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        defer { count += 1 }
        return ModelFieldEncoder(collector: encoder.collector, path: encoder.path + [String(count)]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        defer { count += 1 }
        return ModelFieldEncoder(collector: encoder.collector, path: encoder.path + [String(count)]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder }
}

/// Reached only by values that `record` does not recognise (a bare number): their text.
struct ModelFieldSingleValueContainer: SingleValueEncodingContainer {
    let encoder: ModelFieldEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() {}

    mutating func encode<T: Encodable>(_ value: T) {
        encoder.collector.fields.append(ModelField(path: encoder.path, value: .text("\(value)")))
    }
}

/// A key of a coding path that is only known by its name.
struct ModelFieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
