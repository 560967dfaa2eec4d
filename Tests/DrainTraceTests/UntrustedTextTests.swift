import DrainTrace
import Testing

@Suite struct UntrustedTextTests {
    @Test func quotesAndEscapesWhatCouldRewriteATerminal() {
        #expect(UntrustedText.quoted("plain é 😀") == #""plain é 😀""#)
        #expect(UntrustedText.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(UntrustedText.quoted("x\u{1B}[31m\n\r\t\u{0}\u{7F}\u{85}") == #""x\u001B[31m\u000A\u000D\u0009\u0000\u007F\u0085""#)
        #expect(UntrustedText.quoted("\u{2028}\u{2029}\u{202E}\u{200B}") == #""\u2028\u2029\u202E\u200B""#)
        #expect(UntrustedText.quoted("tag\u{E0041}") == #""tag\uDB40\uDC41""#)
    }

    @Test func cutsAfterTheLimit() {
        let long = String(repeating: "a", count: 70)
        #expect(UntrustedText.quoted(long) == "\"" + String(repeating: "a", count: 60) + "…\"")
        #expect(UntrustedText.quoted(long, limit: 3) == #""aaa…""#)
        #expect(UntrustedText.quoted(long, limit: nil) == "\"" + long + "\"")
        #expect(UntrustedText.quoted("abc", limit: 3) == #""abc""#)
    }

    @Test func escapedKeepsQuotesAndHasNoLimit() {
        #expect(UntrustedText.escaped("radio \"lte\"") == "radio \"lte\"")
        #expect(UntrustedText.escaped("bad\u{1B}[31m") == "bad\\u001B[31m")
        #expect(UntrustedText.escaped(String(repeating: "b", count: 100)).count == 100)
    }
}
