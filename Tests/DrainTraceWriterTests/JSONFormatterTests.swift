import DrainTraceWriter
import Testing

@Suite struct JSONFormatterTests {
    private func text(_ build: (inout JSONLine) -> Void) -> String {
        var line = JSONLine()
        build(&line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    @Test func secondsAreExactDecimalsWithoutTrailingZeros() {
        #expect(text { $0.seconds(1_500_000_000) } == "1.5")
        #expect(text { $0.seconds(1) } == "0.000000001")
        #expect(text { $0.seconds(2_000_000_000) } == "2")
        #expect(text { $0.seconds(0) } == "0")
        #expect(text { $0.seconds(-5) } == "0")
        #expect(text { $0.seconds(21_702_844) } == "0.021702844")
        #expect(text { $0.seconds(Int64.max) } == "9223372036.854775807")
    }

    @Test func decimalsShiftThePointBySignedPlaces() {
        #expect(text { $0.decimal(1500, fractionDigits: 3) } == "1.5")
        #expect(text { $0.decimal(-1500, fractionDigits: 3) } == "-1.5")
        #expect(text { $0.decimal(-2_000_000_000, fractionDigits: 9) } == "-2")
        #expect(text { $0.decimal(1500, fractionDigits: 9) } == "0.0000015")
        #expect(text { $0.decimal(7, fractionDigits: 0) } == "7")
        #expect(text { $0.decimal(Int64.min, fractionDigits: 3) } == "-9223372036854775.808")
    }

    @Test func integersIncludingTheExtremes() {
        #expect(text { $0.integer(0) } == "0")
        #expect(text { $0.integer(-42) } == "-42")
        #expect(text { $0.integer(Int64.min) } == "-9223372036854775808")
        #expect(text { $0.unsigned(UInt64.max) } == "18446744073709551615")
        #expect(text { $0.real(59.94) } == "59.94")
        #expect(text { $0.real(1e-07) } == "1e-07")
    }

    /// Connection labels write their ports, octets and generations with `unsigned`.
    @Test(arguments: [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65535, 100_000, Int(UInt32.max), Int.max])
    func decimalsReadAsSwiftWritesThem(value: Int) {
        #expect(text { $0.unsigned(UInt64(value)) } == String(value))
    }

    /// Each piece lands after the text so far, whatever its bound: raw text of one and of
    /// several bytes, numbers of one digit and of twenty, and a string whose bound runs to
    /// kilobytes.
    @Test func piecesAppendAfterTheTextSoFar() {
        let long = String(repeating: "\u{1}", count: 400)
        let built = text { line in
            line.raw("tcp")
            line.byte(UInt8(ascii: " "))
            line.raw(" → ")
            line.unsigned(0)
            line.raw("")
            line.integer(Int64.min)
            line.string(long)
            line.raw("]:")
            line.unsigned(443)
        }
        let escaped = "\"" + String(repeating: "\\u0001", count: 400) + "\""
        #expect(built == "tcp  → 0-9223372036854775808" + escaped + "]:443")
        var line = JSONLine(capacity: 0)
        for value in 0..<1000 { line.unsigned(UInt64(value)) }
        #expect(line.count == 10 + 90 * 2 + 900 * 3)
        line.removeAll()
        line.unsigned(7)
        #expect(line.bytes == [UInt8(ascii: "7")])
    }

    @Test func stringsEscapeQuotesBackslashesAndControlCharacters() {
        #expect(text { $0.string("a\"b\\c\n\r\t\u{1}\u{1F}\u{7F}é") } == #""a\"b\\c\n\r\t\u0001\u001F\u007Fé""#)
        #expect(text { $0.string("nul \u{0} bell \u{7}") } == #""nul \u0000 bell \u0007""#)
        #expect(text { $0.string("") } == #""""#)
    }

    @Test func lineSeparatorsAreEscapedOnlyWhenScriptSafe() {
        let value = "a\u{2028}b\u{2029}c\u{2027}😀</script>"
        #expect(text { $0.string(value) } == "\"\(value)\"")
        #expect(text { $0.string(value, style: .scriptSafe) } == #""a\u2028b\u2029c"# + "\u{2027}😀</script>\"")
        // A lone E2 byte at the end of a string is copied, not read past.
        #expect(text { $0.string("x\u{E9}", style: .scriptSafe) } == "\"x\u{E9}\"")
    }

    /// Hostile strings stay within `bound(of:)` and on one line, and decode to themselves.
    @Test func hostileStringsStayWithinTheirBoundOnOneLine() {
        let hostile = [
            String(repeating: "\u{1}", count: 300), String(repeating: "\"\\", count: 500), "\u{2028}\u{2029}",
            String(repeating: "é😀", count: 100), "</script><script>alert(1)</script>",
        ]
        for value in hostile {
            for style in [JSONStringStyle.standard, .scriptSafe] {
                let written = text { $0.string(value, style: style) }
                #expect(written.utf8.count <= JSONFormatter.bound(of: value))
                #expect(!written.utf8.contains { $0 < 0x20 || $0 == 0x7F })
                #expect(Self.decode(written) == value)
            }
        }
    }

    /// A minimal JSON string decoder for the escapes the formatter writes.
    static func decode(_ json: String) -> String {
        var scalars = Array(json.unicodeScalars.dropFirst().dropLast())
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "\\" else {
                result.append(scalar)
                index += 1
                continue
            }
            let escape = scalars[index + 1]
            switch escape {
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "u":
                let hex = String(String.UnicodeScalarView(scalars[(index + 2)..<(index + 6)]))
                result.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!)
                index += 4
            default: result.append(escape)
            }
            index += 2
        }
        scalars.removeAll()
        return String(result)
    }

    @Test func theFormatterWritesIntoCallerMemory() {
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { memory.deallocate() }
        var line = JSONFormatter(memory)
        line.timePrefix(1_000_000)
        line.type(.net)
        line.field(.dir, TraceNetDirection.rx.name)
        line.integer(.bytes, 1200)
        line.endLine()
        #expect(String(decoding: line.written, as: UTF8.self) == "{\"t\":0.001,\"type\":\"net\",\"dir\":\"rx\",\"bytes\":1200}\n")
        #expect(line.count == line.written.count)
    }
}
