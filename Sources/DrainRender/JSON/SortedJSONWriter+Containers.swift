/// The `Encoder` handed to one value's `encode(to:)`: its container, when it asks for one,
/// opens at stack `level` of the shared ``JSONOutput``. A struct of three words, so passing
/// it as `any Encoder` allocates nothing.
struct JSONValueEncoder: Encoder {
    let output: JSONOutput
    let level: Int
    /// Containers opened by this value have ids from here on.
    let firstID: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONKeyedContainer<Key>(output: output, level: level, id: containerID(isObject: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONUnkeyedContainer(output: output, level: level, id: containerID(isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if ownContainer != nil { output.failed = true }
        return JSONSingleValueContainer(output: output, level: level)
    }

    /// The container this value opened, if it opened one (and it is still open).
    private var ownContainer: JSONOutput.OpenContainer? {
        guard level < output.open.count, output.open[level].id >= firstID else { return nil }
        return output.open[level]
    }

    /// The value's one container: asking again returns the same one, as Foundation does.
    private func containerID(isObject: Bool) -> Int {
        if let own = ownContainer {
            if own.isObject != isObject { output.failed = true }
            return own.id
        }
        if output.nextID >= firstID {
            // This value opened a container before and it was closed since: out of order.
            output.failed = true
            return -1
        }
        return output.openContainer(isObject: isObject, level: level)
    }
}

struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let output: JSONOutput
    let level: Int
    let id: Int

    var codingPath: [any CodingKey] { [] }

    private func begin(_ key: Key) throws {
        try output.activate(level: level, id: id)
        try output.beginElement(level: level, key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        output.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        output.writeBool(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        output.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        try output.writeDouble(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        try output.writeFloat(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger(_ value: some FixedWidthInteger, _ key: Key) throws {
        try begin(key)
        output.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try output.writeValue(value, level: level + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(output: output, level: level + 1, id: openNested(key, isObject: true)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONUnkeyedContainer(output: output, level: level + 1, id: openNested(key, isObject: false))
    }

    private func openNested(_ key: Key, isObject: Bool) -> Int {
        output.openNested(isObject: isObject, level: level) { try begin(key) }
    }

    mutating func superEncoder() -> any Encoder { output.declinedSuperEncoder(level: level) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}

struct JSONUnkeyedContainer: UnkeyedEncodingContainer, JSONScalarSlot {
    let output: JSONOutput
    let level: Int
    let id: Int

    var codingPath: [any CodingKey] { [] }
    var count: Int { output.elementCount(level: level, id: id) }

    mutating func beginSlot() throws {
        try output.activate(level: level, id: id)
        try output.beginElement(level: level, key: nil)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try beginSlot()
        try output.writeValue(value, level: level + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(output: output, level: level + 1, id: openNested(isObject: true)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONUnkeyedContainer(output: output, level: level + 1, id: openNested(isObject: false))
    }

    private mutating func openNested(isObject: Bool) -> Int {
        output.openNested(isObject: isObject, level: level) { try beginSlot() }
    }

    mutating func superEncoder() -> any Encoder { output.declinedSuperEncoder(level: level) }
}

/// One value with no container of its own: written at once, into the slot its parent began.
struct JSONSingleValueContainer: SingleValueEncodingContainer, JSONScalarSlot {
    let output: JSONOutput
    let level: Int
    private var written = false

    init(output: JSONOutput, level: Int) {
        self.output = output
        self.level = level
    }

    var codingPath: [any CodingKey] { [] }

    /// A single value container takes one value; a second one would make invalid JSON.
    mutating func beginSlot() throws {
        if written { throw SortedJSONWriter.Failure.unsupportedShape }
        written = true
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try beginSlot()
        try output.writeValue(value, level: level)
    }
}

/// The scalar `encode` methods of the unkeyed and the single value container, which differ
/// only in how a slot begins.
protocol JSONScalarSlot {
    var output: JSONOutput { get }
    /// Readies the output for the next value: a separator and indentation in an array, a
    /// check that nothing was written yet in a single value container.
    mutating func beginSlot() throws
}

extension JSONScalarSlot {
    mutating func encodeNil() throws {
        try beginSlot()
        output.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try beginSlot()
        output.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try beginSlot()
        output.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        try beginSlot()
        try output.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try beginSlot()
        try output.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    private mutating func encodeInteger(_ value: some FixedWidthInteger) throws {
        try beginSlot()
        output.writeInteger(value)
    }
}

extension JSONOutput {
    /// The id of a container nested in the container at `level`, opened once `begin` has
    /// started its slot; -1, the encoding marked failed, when the slot could not begin.
    func openNested(isObject: Bool, level: Int, after begin: () throws -> Void) -> Int {
        do {
            try begin()
        } catch {
            failed = true
            return -1
        }
        return openContainer(isObject: isObject, level: level + 1)
    }

    /// Super encoders are not supported (a super encoder's slot would stay open until
    /// something is written into it): the encoding is marked failed and Foundation takes over.
    func declinedSuperEncoder(level: Int) -> any Encoder {
        failed = true
        return JSONValueEncoder(output: self, level: level + 1, firstID: nextID + 1)
    }
}
