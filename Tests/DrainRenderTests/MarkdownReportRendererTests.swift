import DrainReport
import DrainTestSupport
import DrainRender
import Testing

@Suite struct MarkdownReportRendererTests {
    /// Table cell separators: `|` not escaped by a backslash (a backslash escapes the next
    /// character, including another backslash).
    func cellSeparators(_ line: Substring) -> Int {
        var count = 0
        var escaping = false
        for character in line {
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "|" {
                count += 1
            }
        }
        return count
    }

    /// Every `[`, `]` and backtick outside a backslash escape.
    func unescaped(_ specials: Set<Character>, in text: String) -> [Character] {
        var found: [Character] = []
        var escaping = false
        for character in text {
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if specials.contains(character) {
                found.append(character)
            }
        }
        return found
    }

    @Test func isDeterministic() {
        #expect(MarkdownReportRenderer.render(ReportFixture.realistic) == MarkdownReportRenderer.render(ReportFixture.realistic))
    }

    @Test func showsTheSummaryFindingsAndRules() {
        let markdown = MarkdownReportRenderer.render(ReportFixture.realistic)
        #expect(markdown.hasPrefix("# Drain report: iPhone-class phone on LTE\n"))
        // 49.87 J total, 49.87 / 3.6 = 13.853 mWh.
        #expect(markdown.contains("| Total energy | 49.87 J (13.853 mWh) |"))
        #expect(markdown.contains("| radio | 43.92 J | 88.1 % |"))
        #expect(markdown.contains("### 1. ERROR · CPU-POLLING: NetworkMonitor.poll checks every 0.1 s in background"))
        #expect(markdown.contains("- **Fix:** Replace the polling loop with a dispatch source or a notification.\n"))
        #expect(markdown.contains("| period | 30 s |"))
        #expect(markdown.contains("| NET-UNCOMPRESSED | network | Uncompressed text payloads | not applicable | All payloads are encrypted. |"))
    }

    @Test func hostileStringsCannotBreakTablesStartBlocksOrInjectMarkup() {
        let realistic = MarkdownReportRenderer.render(ReportFixture.realistic)
        let markdown = MarkdownReportRenderer.render(ReportFixture.hostileReport)
        #expect(!markdown.contains("<"))
        #expect(!markdown.contains("\r") && !markdown.contains("\u{2028}") && !markdown.contains("\u{1B}") && !markdown.contains("\u{202E}"))
        #expect(unescaped(["[", "]", "`"], in: markdown).isEmpty)
        #expect(markdown.contains("\\[link\\](javascript:alert(1))"))
        #expect(markdown.contains("&amp;amp;"))
        // Line breaks in the payload stay inside their line: no line starts with the
        // payload's heading, and there are as many headings as in the ordinary report.
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("# INJECTED") || $0.hasPrefix("| x |") })
        let headings = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("#") }.count }
        #expect(headings(markdown) == headings(realistic))
        // Every table row has as many cell separators as its table's header.
        var header: Int?
        for line in lines {
            guard line.hasPrefix("|") else {
                header = nil
                continue
            }
            let separators = cellSeparators(line)
            if let expected = header {
                #expect(separators == expected, "\(line)")
            } else {
                header = separators
            }
        }
    }
}
