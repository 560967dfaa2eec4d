import Foundation

/// The one JSON encoding of a report, shared by the JSON renderer and the HTML data block.
public enum ReportJSON {
    /// Encodes `value` with sorted keys, so equal values give identical bytes.
    ///
    /// The bytes are those of Foundation's `JSONEncoder` (sorted keys, slashes unescaped),
    /// written by ``SortedJSONWriter`` without Foundation's intermediate tree. When the writer
    /// declines (a non-finite number, a container shape it does not follow), Foundation
    /// encodes instead, so non-finite numbers are refused (JSON has no spelling for them) with
    /// the path of the offending value rather than an opaque encoder error.
    public static func encode(_ value: some Encodable, pretty: Bool) throws(ReportRenderError) -> String {
        if let bytes = try? SortedJSONWriter.encode(value, pretty: pretty) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return try foundationEncode(value, pretty: pretty)
    }

    /// `value` pretty-printed with a final newline: the document Drain writes to a file. The
    /// newline is added to the bytes, so the text is made once.
    public static func document(_ value: some Encodable) throws(ReportRenderError) -> String {
        if var bytes = try? SortedJSONWriter.encode(value, pretty: true) {
            bytes.append(UInt8(ascii: "\n"))
            return String(decoding: bytes, as: UTF8.self)
        }
        return try foundationEncode(value, pretty: true) + "\n"
    }

    /// The same encoding through Foundation's `JSONEncoder`.
    static func foundationEncode(_ value: some Encodable, pretty: Bool) throws(ReportRenderError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(value)
            return String(decoding: data, as: UTF8.self)
        } catch let EncodingError.invalidValue(_, context) {
            throw .nonFiniteNumber(path: path(context.codingPath))
        } catch {
            throw .encodingFailed(String(describing: error))
        }
    }

    /// `timeline.energy_j[3][1]` from a coding path.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}
