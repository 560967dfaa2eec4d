/// A strict RFC 4180 reader for the tests: records end with CRLF, fields are separated by
/// commas, a quoted field may hold commas, CR, LF and doubled quotes. Anything else (a bare
/// LF or CR outside quotes, a quote inside an unquoted field, text after a closing quote, a
/// missing final CRLF) is an error, so the tests notice any deviation from the format.
struct RFC4180Reader {
    struct FormatError: Error, CustomStringConvertible {
        var offset: Int
        var problem: String
        var description: String { "CSV error at scalar \(offset): \(problem)" }
    }

    static func records(_ text: String) throws -> [[String]] {
        let scalars = Array(text.unicodeScalars)
        var records: [[String]] = []
        var record: [String] = []
        var index = 0
        while index < scalars.count {
            var field = ""
            if scalars[index] == "\"" {
                index += 1
                while true {
                    guard index < scalars.count else { throw FormatError(offset: index, problem: "unterminated quoted field") }
                    if scalars[index] == "\"" {
                        if index + 1 < scalars.count, scalars[index + 1] == "\"" {
                            field.unicodeScalars.append("\"")
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    field.unicodeScalars.append(scalars[index])
                    index += 1
                }
            } else {
                while index < scalars.count, scalars[index] != ",", scalars[index] != "\r" {
                    if scalars[index] == "\"" || scalars[index] == "\n" {
                        throw FormatError(offset: index, problem: "\(scalars[index] == "\"" ? "quote" : "bare LF") in an unquoted field")
                    }
                    field.unicodeScalars.append(scalars[index])
                    index += 1
                }
            }
            record.append(field)
            guard index < scalars.count else { throw FormatError(offset: index, problem: "last record has no CRLF") }
            if scalars[index] == "," {
                index += 1
                if index == scalars.count { throw FormatError(offset: index, problem: "comma at end of input") }
            } else if scalars[index] == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" {
                records.append(record)
                record = []
                index += 2
            } else {
                throw FormatError(offset: index, problem: "unexpected \(scalars[index].escaped(asASCII: true)) after a field")
            }
        }
        return records
    }
}
