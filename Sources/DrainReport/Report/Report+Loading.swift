import DrainTrace
import Foundation

extension Report {
    /// Loads a report JSON written by `drain analyze --json` (or any renderer of the same
    /// schema). A report of another schema version gets that message, not a decoding error
    /// (`decode(_:path:)`). O(size of the file).
    ///
    /// - Throws: `ReportLoadError`: `.unreadable` (exit 66); `.malformedJSON` with line and
    ///   column, `.notAReport`, `.unsupportedSchema`, `.invalid` with the key path (exit 65).
    public static func load(path: String) throws(ReportLoadError) -> Report {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileRead.read(path: path, limit: maximumFileBytes)
        } catch {
            switch error {
            case let .unreadable(reason): throw ReportLoadError(path: path, problem: .unreadable(reason))
            case let .tooLarge(size, limit): throw ReportLoadError(path: path, problem: .tooLarge(size: size, limit: limit))
            }
        }
        return try decode(Data(bytes), path: path)
    }

    /// The largest report file read. Drain's reports are bounded (top-N tables, a bounded
    /// timeline) and weigh well under 1 MiB; parsing JSON takes several times its size.
    public static var maximumFileBytes: Int { 64 << 20 }

    /// Decodes a report from JSON bytes; `path` names them in errors. The bytes are parsed once
    /// when they are a report of this schema; only bytes that fail are parsed again, loosely,
    /// to say why in the order a reader expects: not JSON, not a report, another schema
    /// version, then what is wrong in this one.
    public static func decode(_ data: Data, path: String) throws(ReportLoadError) -> Report {
        let report: Report
        do {
            report = try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw ReportLoadError(path: path, problem: failureProblem(error, in: data))
        }
        guard report.schemaVersion == currentSchemaVersion else {
            throw ReportLoadError(path: path, problem: .unsupportedSchema(report.schemaVersion))
        }
        return report
    }

    /// Why `data` did not decode as a report, given the decoder's `error`.
    private static func failureProblem(_ error: any Error, in data: Data) -> ReportLoadError.Problem {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return syntaxProblem(error, in: data)
        }
        guard let top = object as? [String: Any] else { return .notAReport("the top level is not a JSON object") }
        guard let version = top["schema_version"] else { return .notAReport("it has no \"schema_version\"") }
        guard let number = version as? Int else { return .notAReport("\"schema_version\" is not a whole number") }
        guard number == currentSchemaVersion else { return .unsupportedSchema(number) }
        if let error = error as? DecodingError { return decodingProblem(error) }
        return .invalid(path: "(top level)", reason: String(describing: error))
    }

    /// Foundation reports a syntax error as "… around character N." (a byte offset); the
    /// line and column are counted from it.
    private static func syntaxProblem(_ error: any Error, in data: Data) -> ReportLoadError.Problem {
        let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? String(describing: error)
        let reason = text.hasSuffix(".") ? String(text.dropLast()) : text
        guard let range = text.range(of: "around character "),
            let offset = Int(text[range.upperBound...].prefix { $0.isNumber }), offset <= data.count
        else {
            return .malformedJSON(line: nil, column: nil, reason: reason)
        }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return .malformedJSON(line: line, column: column, reason: reason)
    }

    private static func decodingProblem(_ error: DecodingError) -> ReportLoadError.Problem {
        func keyPath(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            var text = ""
            for key in codingPath + (last.map { [$0] } ?? []) {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case let .keyNotFound(key, context):
            return .invalid(path: keyPath(context.codingPath, key), reason: "missing")
        case let .typeMismatch(type, context):
            return .invalid(path: keyPath(context.codingPath), reason: "expected \(Self.typeName(type))")
        case let .valueNotFound(type, context):
            return .invalid(path: keyPath(context.codingPath), reason: "null where \(Self.typeName(type)) is expected")
        case let .dataCorrupted(context):
            return .invalid(path: keyPath(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .invalid(path: "(top level)", reason: String(describing: error))
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type, is Int64.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)"
        }
    }
}
