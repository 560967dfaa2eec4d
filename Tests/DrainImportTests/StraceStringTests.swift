import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Paths and names come from the traced program and are printed with strace's C escapes:
/// they are decoded back to their bytes, kept exactly, and never confuse the parser.
@Suite struct StraceStringTests {
    /// Decodes `escaped` as strace writes strings, without quotes.
    func decoded(_ escaped: String) -> [UInt8] {
        var output: [UInt8] = []
        Array(escaped.utf8).withUnsafeBytes { StraceEscapes.decode($0, from: 0, to: $0.count, into: &output) }
        return output
    }

    @Test(
        "strace's escapes",
        arguments: [
            (#"plain"#, Array("plain".utf8)),
            (#"a\"b\\c"#, Array(#"a"b\c"#.utf8)),
            (#"\n\t\r\v\f"#, [0x0A, 0x09, 0x0D, 0x0B, 0x0C]),
            (#"\x3c/script\x3e"#, Array("</script>".utf8)),
            (#"\X41"#, Array(#"\X41"#.utf8)),
            // Octal: one to three digits, three whenever a digit follows.
            (#"\0\1\33\177"#, [0x00, 0x01, 0x1B, 0x7F]),
            (#"\0001"#, [0x00, 0x31]),
            (#"caf\303\251"#, Array("café".utf8)),
            (#"\74\76"#, Array("<>".utf8)),
            // A backslash before anything strace does not write stays as it is.
            (#"a\qb\"#, Array(#"a\qb\"#.utf8)),
            (#"\x4"#, Array(#"\x4"#.utf8)),
        ] as [(String, [UInt8])])
    func escapes(_ escaped: String, _ bytes: [UInt8]) {
        #expect(decoded(escaped) == bytes)
    }

    @Test func hostilePathsAreDecodedAndKeptExactly() throws {
        let input = try importStrace([
            // Quotes, a comma and parentheses inside the string do not end the argument.
            #"9  1700000000.000000 openat(AT_FDCWD, "/tmp/a \"b\", (c).txt", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3 <0.000010>"#,
            // Markup and control characters, escaped by strace.
            #"9  1700000000.001000 openat(AT_FDCWD, "/tmp/\x3cscript\x3ealert(1)\x3c/script\x3e\n\33[31m", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 4 <0.000010>"#,
            // -yy annotation: `<` and `>` in the path escaped (octal); a comma kept.
            #"9  1700000000.002000 write(5</tmp/x,y-\76z\74b\76.log>, "data, \"more\")", 4) = 4 <0.000010>"#,
            // UTF-8 beyond ASCII, which strace prints in octal.
            #"9  1700000000.003000 openat(AT_FDCWD, "/tmp/\303\251t\303\251", O_WRONLY|O_TRUNC) = 6 <0.000010>"#,
        ])
        #expect(
            input.events(.disk).map(\.label) == [
                #"/tmp/a "b", (c).txt"#,
                "/tmp/<script>alert(1)</script>\n\u{1B}[31m",
                "/tmp/x,y->z<b>.log",
                "/tmp/été",
            ])
    }

    @Test func invalidUTF8InAPathIsKeptAsBytes() throws {
        let input = try importStrace([#"9  1700000000.000000 openat(AT_FDCWD, "/tmp/\377\376", O_WRONLY|O_TRUNC) = 3 <0.000010>"#])
        let row = try #require(input.timeline.label.first)
        #expect(input.timeline.strings.lookup("/tmp/\u{FFFD}\u{FFFD}") == nil)
        // Reading the string repairs it for display; the table holds the original bytes.
        #expect(input.timeline.strings[row] == "/tmp/\u{FFFD}\u{FFFD}")
    }

    @Test func truncatedStringsAndNestedStructuresDoNotMoveTheArguments() throws {
        let input = try importStrace([
            #"9  1700000000.000000 write(3</data/blob>, "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0"..., 832) = 832 <0.000010>"#,
            #"9  1700000000.001000 sendmsg(4<TCP:[10.0.0.2:5000->1.2.3.4:443]>, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="a)b", iov_len=3}, {iov_base="}]", iov_len=2}], msg_iovlen=2, msg_controllen=0, msg_flags=0}, MSG_NOSIGNAL) = 5 <0.000010>"#,
        ])
        #expect(input.events.map(\.amount) == [832, 5])
        #expect(input.events.map(\.label) == ["/data/blob", "1.2.3.4"])
    }
}
