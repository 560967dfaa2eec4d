@testable import DrainGate
import Testing

@Suite struct GateTerminalRendererTests {
    @Test func rendersTheRealisticVerdict() {
        let note3 = "    with 3 runs on a side a difference cannot reach significance (p < 0.05 needs 4 runs per side)"
        let expected = [
            "drain gate: cold-start · model phone-lte · 3 runs vs 5 baseline runs · FAIL",
            "2 failed, 2 warnings, 1 inconclusive, 2 improvements, 3 passed, 1 skipped · baseline 0123456789ab on main",
            "warning: the baseline was made on another machine (Apple M2, 8 cores) than these runs (Intel Xeon, 2 cores): energy measured by a recorder or probe depends on the CPU",
            "warning: 3 runs against 5 baseline runs: significance needs at least 4 runs per side",
            "✗ energy.by_category.radio vs baseline: 8 J → 9.5 J, Δ +1.5 J (+18.8 %), 95 % interval [+1.1 J, +1.9 J], p = 0.036; expected no increase beyond 0.8 J (max of 10 % of the baseline and 0.1 J)",
            note3,
            "✗ energy.total_j ≤ 12 J: found 13.4 J (median of runs 13.1 J, 13.4 J, 14 J)",
            "! new finding NET-PERIODIC:api.example.com: in 3 of 3 runs, 0 of 5 baseline runs; expected not in the baseline",
            "! memory.peak_bytes ≤ 150 MB: found 181.2 MB (max of runs 175 MB, 181.2 MB, 178 MB)",
            "? wakeups.count vs baseline: 40 → 46, Δ +6 (+15 %), 95 % interval [-1, +12], p = 0.071; expected no increase beyond 5 (max of 10 % of the baseline and 5)",
            note3,
            "★ scores.energy vs baseline: 62 → 71, Δ +9 (+14.5 %), 95 % interval [+7, +11], p = 0.036; expected no decrease beyond 6.2 (max of 10 % of the baseline and 1)",
            note3 + "; improved beyond the tolerance: save a new baseline (--save-baseline) to tighten it",
            "★ resolved finding DISK-SYNC:/var/db/app.sqlite: in 0 of 3 runs, 5 of 5 baseline runs",
            "– memory.p95_bytes vs baseline: not measured in the baseline; expected no regression",
            "✓ 3 passed: budget:energy.average_mw, findings:CPU-POLLING, regression:energy.total_j",
        ]
        let text = GateTerminalRenderer(color: false).render(GateVerdictFixture.realistic)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == expected + [""])
        #expect(text == GateTerminalRenderer(color: false).render(GateVerdictFixture.realistic))
    }

    @Test func coloursOnlyOnRequest() {
        let text = GateTerminalRenderer(color: true).render(GateVerdictFixture.realistic)
        #expect(text.hasPrefix("\u{1B}[1mdrain gate: cold-start · model phone-lte · 3 runs vs 5 baseline runs\u{1B}[0m · \u{1B}[1;31mFAIL\u{1B}[0m\n"))
        #expect(text.contains("\n\u{1B}[31m✗\u{1B}[0m energy.total_j ≤ 12 J: found 13.4 J (median of runs 13.1 J, 13.4 J, 14 J)\n"))
        #expect(!GateTerminalRenderer(color: false).render(GateVerdictFixture.realistic).contains("\u{1B}"))
    }

    @Test func hostileStringsCannotReachTheTerminal() {
        let realistic = GateTerminalRenderer(color: false).render(GateVerdictFixture.realistic)
        let text = GateTerminalRenderer(color: false).render(GateVerdictFixture.hostile)
        for control in ["\u{1B}", "\u{9B}", "\u{07}", "\r", "\u{202E}", "\u{2028}"] {
            #expect(!text.contains(control), "raw \(control.unicodeScalars.first!.value) in the output")
        }
        // No string broke its line: as many lines as without the payload, plus the notes that
        // the hostile copy gives the checks without one.
        let added = GateVerdictFixture.realistic.checks.count(where: { $0.status != .pass && $0.note == nil })
        #expect(text.split(separator: "\n").count == realistic.split(separator: "\n").count + added)
        // With colour, the only escapes are the renderer's own.
        let coloured = GateTerminalRenderer(color: true).render(GateVerdictFixture.hostile)
        #expect(!coloured.contains("\u{1B}[31mRED"))
    }

    @Test func namesAtMostTwentyPassingChecks() {
        var verdict = GateVerdictFixture.realistic
        verdict.checks = GateVerdictFixture.many(25, .pass)
        verdict.outcome = .pass
        let lines = GateTerminalRenderer(color: false).render(verdict).split(separator: "\n")
        #expect(lines[0].hasSuffix(" · PASS"))
        let passed = String(lines.last!)
        #expect(passed.hasPrefix("✓ 25 passed: budget:energy.by_category.cpu#0, "))
        #expect(passed.hasSuffix(", budget:energy.by_category.cpu#19 and 5 more"))
    }
}
