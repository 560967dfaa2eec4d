/// One field of a CSV record.
public enum CSVField: Sendable {
    /// A string from the report (untrusted): guarded against formula injection, then quoted
    /// as RFC 4180 requires.
    case text(String)
    /// A number the renderer formatted itself (digits, `.`, a leading `-`): written as is.
    case number(String)
    /// No value (an optional that is `nil`).
    case empty

    public static func text(_ value: String?) -> CSVField { value.map(CSVField.text) ?? .empty }
    public static func integer(_ value: Int?) -> CSVField { value.map { .number(String($0)) } ?? .empty }
    public static func integer(_ value: Int64) -> CSVField { .number(String(value)) }
}

/// Builds one RFC 4180 table: comma-separated fields, CRLF after every record (the last one
/// too), and a field quoted when it holds a comma, a double quote, CR or LF, with inner
/// double quotes doubled. Text fields are guarded against formula injection.
public struct CSVTable: Sendable {
    public let name: String
    public private(set) var csv = ""
    private let columns: Int

    public init(name: String, header: [String]) {
        self.name = name
        columns = header.count
        append(header.map(CSVField.text))
    }

    /// Appends one record; it must have as many fields as the header.
    public mutating func append(_ fields: [CSVField]) {
        precondition(fields.count == columns, "CSV table \(name): record of \(fields.count) fields under a header of \(columns)")
        for (index, field) in fields.enumerated() {
            if index > 0 { csv += "," }
            csv += Self.encode(field)
        }
        csv += "\r\n"
    }

    static func encode(_ field: CSVField) -> String {
        switch field {
        case .empty: return ""
        case .number(let text): return text
        case .text(let text): return quoted(neutralizingFormula(text))
        }
    }

    /// A spreadsheet evaluates a cell that starts with `=`, `+`, `-` or `@` (and some treat a
    /// leading tab or CR the same way) as a formula, which a hostile capture could use to run
    /// commands on the reader's machine (OWASP "CSV Injection"). Such text is prefixed with
    /// `'`, which spreadsheets take as "this is text" and do not display.
    static func neutralizingFormula(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        switch first {
        case "=", "+", "-", "@", "\t", "\r": return "'" + text
        default: return text
        }
    }

    static func quoted(_ text: String) -> String {
        let needsQuotes = text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return text }
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { result += "\"\"" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "\""
    }
}
