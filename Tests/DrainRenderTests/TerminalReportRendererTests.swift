import DrainReport
import DrainTestSupport
import DrainRender
import Testing

@Suite struct TerminalReportRendererTests {
    /// The SGR sequences the renderer writes itself.
    static let ownStyles: Set = ["1", "2", "0", "31", "31;1", "32", "33", "34", "35", "36", "37", "93"]

    /// `text` without its SGR sequences, and the codes of the sequences removed; an ESC that
    /// does not start an SGR sequence is left in place.
    func strippingStyles(_ text: String) -> (plain: String, codes: [String]) {
        var plain = ""
        var codes: [String] = []
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.first {
            if scalar == "\u{1B}", scalars.dropFirst().first == "[",
               let end = scalars.dropFirst(2).firstIndex(where: { !("0"..."9").contains($0) && $0 != ";" }),
               scalars[end] == "m" {
                codes.append(String(String.UnicodeScalarView(scalars[scalars.index(scalars.startIndex, offsetBy: 2)..<end])))
                scalars = scalars[scalars.index(after: end)...]
                continue
            }
            plain.unicodeScalars.append(scalar)
            scalars = scalars.dropFirst()
        }
        return (plain, codes)
    }

    func controls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
        }
    }

    @Test func summarisesTheRun() {
        let text = TerminalReportRenderer.render(ReportFixture.realistic, color: false)
        // 49.87 J over 120 s: 415.6 mW; 0.415583 W / 12.7 Wh = 3.27 %/h.
        #expect(text.contains("Energy    49.87 J · 415.6 mW average · 3.27 %/h battery · score 63/100"))
        #expect(text.contains("Memory    peak 296.0 MB of 3.00 GB limit (9.9 %) · 1 memory warning"))
        #expect(text.contains("Guidance  85/100 (network 83 · cpu 67 · disk 100 · memory 75 · lifecycle 100)"))
        #expect(text.contains("Findings  1 error · 2 warnings · 1 info"))
        #expect(text.contains("3 import diagnostics (14 occurrences)"))
        let lines = text.split(separator: "\n")
        let polling = lines.firstIndex { $0.contains("CPU-POLLING") }!
        #expect(lines[polling].hasPrefix("  ✖ error    CPU-POLLING  NetworkMonitor.poll"))
        #expect(lines[polling + 1].hasSuffix("fix: Replace the polling loop with a dispatch source or a notification."))
        // The radio bar is the longest (43.92 J of 49.87 J); cpu's is 5 / 43.92 of it.
        let radio = lines.first { $0.hasPrefix("  radio") }!
        let cpu = lines.first { $0.hasPrefix("  cpu") }!
        #expect(radio.filter { $0 == "█" }.count > 8 * cpu.filter { $0 == "█" }.count)
    }

    @Test(arguments: [40, 60, 100, 160])
    func keepsWithinTheWidth(_ width: Int) {
        for report in [ReportFixture.realistic, ReportFixture.hostileReport] {
            let text = strippingStyles(TerminalReportRenderer.render(report, color: true, width: width)).plain
            for line in text.split(separator: "\n") { #expect(line.count <= width, "\(line)") }
        }
    }

    @Test func hasNoEscapesWithoutColour() {
        for report in [ReportFixture.realistic, ReportFixture.hostileReport] {
            let text = TerminalReportRenderer.render(report, color: false)
            #expect(controls(in: text).isEmpty)
        }
    }

    @Test func neutralisesHostileEscapesWhenColoured() {
        let text = TerminalReportRenderer.render(ReportFixture.hostileReport, color: true, width: 2000)
        let (plain, codes) = strippingStyles(text)
        #expect(!codes.isEmpty)
        #expect(Set(codes).isSubset(of: Self.ownStyles))
        #expect(controls(in: plain).isEmpty)
        #expect(plain.contains("\u{FFFD}[31mRED\u{FFFD}[2J\u{FFFD}]0;title\u{FFFD}\u{FFFD}1m\u{FFFD}"))
        // The payload's own `ESC[31m` never reaches the output: every ESC[31m is the
        // renderer's radio bar, which is followed by bar blocks.
        for range in text.ranges(of: "\u{1B}[31m") { #expect(text[range.upperBound...].first.map { "█▏▎▍▌▋▊▉".contains($0) } == true) }
    }
}
