@testable import DrainGate
import Testing

@Suite struct GateMarkdownRendererTests {
    /// Table cell separators: `|` not escaped by a backslash (a backslash escapes the next
    /// character, including another backslash).
    func cellSeparators(_ line: Substring) -> Int {
        line.replacing(/\\./, with: "").count(where: { $0 == "|" })
    }

    @Test func rendersTheRealisticVerdict() {
        let note3 = "<br>note: with 3 runs on a side a difference cannot reach significance (p &lt; 0.05 needs 4 runs per side)"
        let expected = """
            ## ❌ drain gate: FAIL · cold-start

            Model phone-lte · 3 runs vs 5 baseline runs · baseline 0123456789ab on main · 2 failed, 2 warnings, 1 inconclusive, 2 improvements, 3 passed, 1 skipped

            **Warnings**

            - the baseline was made on another machine (Apple M2, 8 cores) than these runs (Intel Xeon, 2 cores): energy measured by a recorder or probe depends on the CPU
            - 3 runs against 5 baseline runs: significance needs at least 4 runs per side

            | Status | Check | Expected | Found |
            |---|---|---|---|
            | ❌ fail | regression:energy.by\\_category.radio | no increase beyond 0.8 J (max of 10 % of the baseline and 0.1 J) | 8 J → 9.5 J, Δ +1.5 J (+18.8 %), 95 % interval \\[+1.1 J, +1.9 J\\], p = 0.036\(note3) |
            | ❌ fail | budget:energy.total\\_j | ≤ 12 J | 13.4 J (median of runs 13.1 J, 13.4 J, 14 J) |
            | ⚠️ warn | new:NET-PERIODIC:api.example.com | not in the baseline | in 3 of 3 runs, 0 of 5 baseline runs |
            | ⚠️ warn | budget:memory.peak\\_bytes | ≤ 150 MB | 181.2 MB (max of runs 175 MB, 181.2 MB, 178 MB) |
            | ❔ inconclusive | regression:wakeups.count | no increase beyond 5 (max of 10 % of the baseline and 5) | 40 → 46, Δ +6 (+15 %), 95 % interval \\[-1, +12\\], p = 0.071\(note3) |
            | ✨ improvement | regression:scores.energy | no decrease beyond 6.2 (max of 10 % of the baseline and 1) | 62 → 71, Δ +9 (+14.5 %), 95 % interval \\[+7, +11\\], p = 0.036\(note3); improved beyond the tolerance: save a new baseline (--save-baseline) to tighten it |
            | ✨ improvement | resolved:DISK-SYNC:/var/db/app.sqlite | in the baseline | in 0 of 3 runs, 5 of 5 baseline runs |

            <details><summary>3 passing checks, 1 skipped</summary>

            | Status | Check | Expected | Found |
            |---|---|---|---|
            | ✅ pass | budget:energy.average\\_mw | ≤ 150 mW | 112 mW (median of runs 110 mW, 112 mW, 115 mW) |
            | ✅ pass | findings:CPU-POLLING | ≤ 0 findings | 0 (median of runs 0, 0, 0) |
            | ✅ pass | regression:energy.total\\_j | no increase beyond 1.24 J (max of 10 % of the baseline and 0.1 J) | 12.4 J → 13.4 J, Δ +1 J (+8.06 %), 95 % interval \\[+0.6 J, +1.6 J\\], p = 0.036\(note3) |
            | ⏭️ skipped | regression:memory.p95\\_bytes | no regression | not measured in the baseline |

            </details>

            """
        let markdown = GateMarkdownRenderer().render(GateVerdictFixture.realistic)
        #expect(markdown == expected)
        #expect(markdown == GateMarkdownRenderer().render(GateVerdictFixture.realistic))
    }

    @Test func saysSoWhenNothingButPassesIsLeft() {
        var verdict = GateVerdictFixture.realistic
        verdict.checks = verdict.checks(.pass)
        verdict.warnings = []
        verdict.outcome = .pass
        verdict.scenario = nil
        let markdown = GateMarkdownRenderer().render(verdict)
        #expect(markdown.hasPrefix("## ✅ drain gate: PASS\n\nModel phone-lte · 3 runs vs 5 baseline runs · baseline 0123456789ab on main · 3 passed\n\nNo failing, warning, inconclusive or improved checks.\n\n<details><summary>3 passing checks</summary>\n\n"))
    }

    @Test func hostileStringsCannotBreakTablesOrInjectMarkup() {
        let markdown = GateMarkdownRenderer().render(GateVerdictFixture.hostile)
        #expect(!markdown.contains("<img") && !markdown.contains("<script") && !markdown.contains("</script"))
        var stripped = markdown
        for tag in ["<details>", "</details>", "<summary>", "</summary>", "<br>"] { stripped = stripped.replacing(tag, with: "") }
        #expect(!stripped.contains("<"), "raw HTML from the verdict")
        for raw in ["\r", "\u{1B}", "\u{9B}", "\u{202E}", "\u{2028}"] { #expect(!markdown.contains(raw)) }
        let lines = markdown.split(separator: "\n")
        let rows = lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Status |") }
        #expect(rows.count == GateVerdictFixture.hostile.checks.count)
        for row in rows { #expect(cellSeparators(row) == 5, "\(row)") }
        // The title, the context line and each warning stay on their line.
        #expect(lines[0].hasPrefix("## ❌ drain gate: FAIL · cold-start&lt;/script&gt;"))
        #expect(lines[1].hasPrefix("Model phone-lte&lt;/script&gt;"))
        #expect(lines.filter { $0.hasPrefix("- ") }.count == 2)
    }

    @Test func staysUnderOneMebibyteCuttingFoldedRowsFirst() throws {
        var verdict = GateVerdictFixture.realistic
        verdict.scenario = String(repeating: "&|", count: 2_000_000)
        verdict.checks = GateVerdictFixture.many(20, .fail) + GateVerdictFixture.many(40_000, .pass)
        let markdown = GateMarkdownRenderer().render(verdict)
        #expect(markdown.utf8.count < GateMarkdownRenderer.byteLimit)
        #expect(markdown.utf8.count > GateMarkdownRenderer.byteLimit - 10_000, "the room is used")
        #expect(markdown.split(separator: "\n").count(where: { $0.hasPrefix("| ❌ fail |") }) == 20)
        let kept = markdown.split(separator: "\n").count(where: { $0.hasPrefix("| ✅ pass |") })
        #expect(markdown.contains("<details><summary>40000 passing checks</summary>"))
        #expect(markdown.contains("\n*\(40_000 - kept) more rows left out to keep this summary under 1 MiB: the JSON verdict (`--json`) has every check.*\n\n</details>\n"))
        #expect(markdown.hasSuffix("</details>\n"))
        // The last rows are the ones left out.
        #expect(markdown.contains("| budget:energy.by\\_category.cpu\\#\(kept - 1) |"))
        #expect(!markdown.contains("| budget:energy.by\\_category.cpu\\#\(kept) |"))
    }

    @Test func cutsTheMainTableWhenItAloneIsTooLong() {
        var verdict = GateVerdictFixture.realistic
        verdict.checks = GateVerdictFixture.many(60_000, .fail) + GateVerdictFixture.many(10, .pass)
        let markdown = GateMarkdownRenderer().render(verdict)
        #expect(markdown.utf8.count < GateMarkdownRenderer.byteLimit)
        let kept = markdown.split(separator: "\n").count(where: { $0.hasPrefix("| ❌ fail |") })
        #expect(kept > 10_000 && kept < 60_000)
        #expect(markdown.contains("\n*\(60_000 - kept) more rows left out"))
        #expect(markdown.hasSuffix("<details><summary>10 passing checks</summary>\n\n*10 more rows left out to keep this summary under 1 MiB: the JSON verdict (`--json`) has every check.*\n\n</details>\n"))
    }
}
