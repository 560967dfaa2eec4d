import Yams

/// Decodes YAML into `Decodable` types, refusing anything the type does not expect.
///
/// - A key the type does not ask for is an error (`unknownKey`) that lists the expected
///   keys: all of them when the type's `CodingKeys` are `CaseIterable`, else those it asked for.
/// - A required key that is absent or null is `missingValue`, at the mapping that lacks it.
/// - Numbers must be unquoted (`"3"` is text), finite and, for integers, whole; booleans
///   are `true` or `false`; a `String` enum that is `CaseIterable` lists its allowed values.
///   A `String` accepts any scalar, so values with units (`12 J`) reach the type as text.
/// - Duplicate keys, anchors and aliases are refused when the text is parsed.
///
/// Every error is a `YAMLError` with the key path (`radio.lte.tail_s`) and the line and
/// column. A type's own checks throw `Decoder.yamlError(…)` to report at its position; any
/// other error it throws becomes `invalidValue` at the value being decoded.
///
/// ```swift
/// struct Budget: Decodable { var max: String; var level: Level }
/// let budget = try StrictYAMLDecoder().decode(Budget.self, from: "max: 12 J\nlevel: warn\n")
/// ```
public struct StrictYAMLDecoder: Sendable {
    public init() {}

    /// Parses `text` and decodes its document; an empty document is `missingValue`. O(nodes).
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws(YAMLError) -> T {
        guard let root = try YAMLDocument.parse(text) else {
            throw YAMLError(.missingValue, "the document is empty")
        }
        return try decode(type, from: root)
    }

    /// Decodes a parsed node (the root of a document from `YAMLDocument.parse`). O(nodes).
    public func decode<T: Decodable>(_ type: T.Type, from root: Node) throws(YAMLError) -> T {
        let decoder = YAMLNodeDecoder(node: root, path: [])
        do {
            return try decoder.decodeValue(T.self)
        } catch let error as YAMLError {
            throw error
        } catch {
            throw decoder.error(.invalidValue, String(describing: error))
        }
    }
}
