import Yams

extension Decoder {
    /// An error at this decoder's value, or at `key` of it when the value is a mapping, with
    /// the key path and, when decoding YAML, the line and column: for a type's own checks in
    /// `init(from:)`. The position is the key's value, or the key itself with `markingKey`
    /// (for a key that is wrong in itself); a key that is absent marks the whole mapping.
    public func yamlError(_ kind: YAMLError.Kind, _ message: String, key: String? = nil, markingKey: Bool = false) -> YAMLError {
        if let decoder = self as? YAMLNodeDecoder {
            return decoder.error(kind, message, key: key, markingKey: markingKey)
        }
        return YAMLError(kind, keyPath: codingPath.map(\.stringValue) + (key.map { [$0] } ?? []), message)
    }
}
