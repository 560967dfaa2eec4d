import DrainTrace
import Testing

@testable import DrainImport

/// Strings are untrusted: they are kept exactly as the trace spells them (escaping is the
/// renderers' job), invalid UTF-8 is repaired when read, and none of it disturbs parsing.
@Suite("Drain trace hostile strings")
struct HostileStringTests {
    @Test("markup, quotes, newlines and NUL survive import intact")
    func kept() throws {
        let input = try importTrace([
            #"{"drain_trace":1,"process":"</script><script>alert(1)</script>"}"#,
            #"{"t":1,"type":"net","dir":"tx","bytes":1,"host":"</script><img src=x onerror=alert(1)>","conn":"\"};alert(1);//"}"#,
            #"{"t":2,"type":"disk","op":"write","bytes":1,"path":"/tmp/a\"b\nc\u0000d\\e\/f\u2028"}"#,
            #"{"t":3,"type":"mark","name":"\ud800 lone, \udc00 low, \ud83d\ude00 pair"}"#,
            #"{"t":4,"type":"cpu","dur":0.1,"thread":"\u0000"}"#,
        ])
        let timeline = input.timeline
        #expect(input.info.process == "</script><script>alert(1)</script>")
        #expect(timeline.text(timeline[0].label) == "</script><img src=x onerror=alert(1)>")
        #expect(timeline.text(timeline[0].label2) == "\"};alert(1);//")
        #expect(timeline.text(timeline[1].label) == "/tmp/a\"b\nc\u{0}d\\e/f\u{2028}")
        #expect(timeline.text(timeline[2].label) == "\u{FFFD} lone, \u{FFFD} low, 😀 pair")
        #expect(timeline.text(timeline[3].thread) == "\u{0}")
        #expect(timeline.count == 4)
    }

    @Test("invalid UTF-8 is kept in the bytes and repaired when read")
    func invalidUTF8() throws {
        var bytes = Array((header + "\n").utf8)
        bytes += Array(#"{"t":1,"type":"net","dir":"tx","bytes":1,"host":"bad"#.utf8)
        bytes += [0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80]  // not UTF-8: a stray byte, a broken pair, a surrogate
        bytes += Array(#".example"}"#.utf8) + [0x0A]
        bytes += Array(#"{"t":2,"type":"mark","name":"after"}"#.utf8) + [0x0A]
        let input = try importTrace(bytes: bytes)
        // Each byte that cannot start or continue a character becomes one U+FFFD: FF, then
        // C3 (its continuation is missing), then ED A0 80 (an encoded surrogate) byte by byte.
        let host = input.timeline.text(input.timeline[0].label)
        #expect(host == "bad\u{FFFD}\u{FFFD}(\u{FFFD}\u{FFFD}\u{FFFD}.example")
        #expect(input.timeline.text(input.timeline[1].label) == "after")
    }

    @Test("a diagnostic quoting an untrusted name escapes control characters")
    func quotedInDiagnostics() throws {
        let input = try importTrace([header, #"{"t":1,"type":"evil\n\u001b[31m","x":1}"#])
        let diagnostic = try #require(input.info.diagnostics.entry("unknown-type"))
        #expect(diagnostic.message.hasPrefix(#"event type "evil\u000A\u001B[31m" is not known"#))
        #expect(!diagnostic.message.contains("\n"))
    }

    @Test("an error quoting an untrusted value escapes it and shortens it")
    func quotedInErrors() throws {
        let failure = try badData([header, #"{"t":1,"type":"net","dir":"\r"# + String(repeating: "x", count: 100) + #"","bytes":1}"#])
        let reason = try #require(failure?.reason)
        #expect(reason.hasPrefix(#""dir" must be one of tx, rx; found "\u000D"#))
        #expect(reason.hasSuffix("…\""))
        #expect(!reason.contains("\r"))
    }
}
