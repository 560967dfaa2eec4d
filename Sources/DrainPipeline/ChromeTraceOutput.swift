import DrainTrace

/// The JSON text of a Chrome trace being written, one event per line: the syntax, number
/// formats and string escaping, apart from what the events mean (`ChromeTraceWriter`).
struct ChromeTraceOutput {
    var text = ""

    /// Opens an event: `{"ph":…,"name":…,"cat":…,"ts":…,"pid":1,"tid":…`. Close it with
    /// `arguments(_:)` or `end()`.
    mutating func begin(phase: String, name: String, category: String, time: Nanoseconds, tid: Int) {
        text += "{\"ph\":\""
        text += phase
        text += "\",\"name\":"
        string(name)
        text += ",\"cat\":"
        string(category)
        text += ",\"ts\":"
        microseconds(time)
        text += ",\"pid\":1,\"tid\":"
        text += String(tid)
    }

    /// Adds `"dur"` in microseconds.
    mutating func duration(_ nanoseconds: Nanoseconds) {
        text += ",\"dur\":"
        microseconds(nanoseconds)
    }

    /// Adds a string field.
    mutating func field(_ key: String, _ value: String) {
        text += ",\""
        text += key
        text += "\":"
        string(value)
    }

    /// Adds `"args"` with what `body` writes, and closes the event.
    mutating func arguments(_ body: (inout Arguments) -> Void) {
        var arguments = Arguments()
        body(&arguments)
        text += ",\"args\":{"
        text += arguments.text
        text += "}"
        end()
    }

    /// Closes the event.
    mutating func end() {
        text += "},\n"
    }

    /// A metadata event naming the process or a thread.
    mutating func metadata(_ kind: String, tid: Int, name: String) {
        text += "{\"ph\":\"M\",\"name\":\"\(kind)\",\"pid\":1,\"tid\":\(tid),\"args\":{\"name\":"
        string(name)
        text += "}},\n"
    }

    /// Nanoseconds as microseconds, exactly: up to three decimals, no trailing zeros.
    mutating func microseconds(_ nanoseconds: Nanoseconds) {
        if nanoseconds < 0 { text += "-" }
        let magnitude = nanoseconds.magnitude
        text += String(magnitude / 1000)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let written = String(fraction)
        text += "." + String(repeating: "0", count: digits - written.count) + written
    }

    /// A JSON string: `"`, `\` and control characters escaped, and U+2028 and U+2029 too, so
    /// the text is also safe inside JavaScript.
    mutating func string(_ value: String) {
        Self.appendString(value, to: &text)
    }

    static func appendString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0..<0x20, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// The members of an `args` object.
    struct Arguments {
        fileprivate(set) var text = ""

        private mutating func key(_ key: String) {
            if !text.isEmpty { text += "," }
            ChromeTraceOutput.appendString(key, to: &text)
            text += ":"
        }

        mutating func string(_ key: String, _ value: String) {
            self.key(key)
            ChromeTraceOutput.appendString(value, to: &text)
        }

        mutating func integer(_ key: String, _ value: Int64) {
            self.key(key)
            text += String(value)
        }

        /// A number in the shortest form that reads back as the same `Double`; 0 for values
        /// JSON cannot hold (NaN, infinities).
        mutating func number(_ key: String, _ value: Double) {
            self.key(key)
            text += value.isFinite ? value.description : "0"
        }

        /// A duration in seconds, as the trace format writes them, exactly.
        mutating func seconds(_ key: String, _ nanoseconds: Nanoseconds) {
            self.key(key)
            var output = ChromeTraceOutput()
            output.microseconds(nanoseconds)
            // Microseconds with three decimals are seconds with nine: shift the point by six.
            text += Self.shiftPoint(output.text, by: 6)
        }

        mutating func boolean(_ key: String, _ value: Bool) {
            self.key(key)
            text += value ? "true" : "false"
        }

        /// A plain decimal divided by 10^places, written without exponent or trailing zeros.
        private static func shiftPoint(_ decimal: String, by places: Int) -> String {
            let negative = decimal.hasPrefix("-")
            let unsigned = negative ? String(decimal.dropFirst()) : decimal
            let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
            let whole = String(parts[0])
            let fraction = parts.count > 1 ? String(parts[1]) : ""
            let padded = String(repeating: "0", count: max(0, places + 1 - whole.count)) + whole
            let split = padded.index(padded.endIndex, offsetBy: -places)
            var digits = String(padded[split...]) + fraction
            while digits.hasSuffix("0") { digits.removeLast() }
            let integer = String(padded[..<split])
            return (negative ? "-" : "") + integer + (digits.isEmpty ? "" : "." + digits)
        }
    }
}
