@testable import DrainGate
import Testing

@Suite struct GitHubAnnotationsTests {
    /// A command's property value or message as the Actions runner reads it back.
    func unescape(_ text: Substring) -> String {
        String(text).replacing("%0D", with: "\r").replacing("%0A", with: "\n").replacing("%3A", with: ":").replacing("%2C", with: ",")
            .replacing("%25", with: "%")
    }

    @Test func annotatesTheFailuresAndWarningsOfTheRealisticVerdict() {
        let note = "%0Awith 3 runs on a side a difference cannot reach significance (p < 0.05 needs 4 runs per side)"
        let expected = [
            "::error title=regression%3A energy.by_category.radio::energy.by_category.radio vs baseline: 8 J → 9.5 J, Δ +1.5 J (+18.8 %25), 95 %25 interval [+1.1 J, +1.9 J], p = 0.036; expected no increase beyond 0.8 J (max of 10 %25 of the baseline and 0.1 J)"
                + note,
            "::error title=budget%3A energy.total_j::energy.total_j ≤ 12 J: found 13.4 J (median of runs 13.1 J, 13.4 J, 14 J)",
            // The verdict's own warnings come first among the warnings.
            "::warning title=drain gate::the baseline was made on another machine (Apple M2, 8 cores) than these runs (Intel Xeon, 2 cores): energy measured by a recorder or probe depends on the CPU",
            "::warning title=drain gate::3 runs against 5 baseline runs: significance needs at least 4 runs per side",
            "::warning title=new finding%3A NET-PERIODIC%3Aapi.example.com::new finding NET-PERIODIC:api.example.com: in 3 of 3 runs, 0 of 5 baseline runs; expected not in the baseline",
            "::warning title=budget%3A memory.peak_bytes::memory.peak_bytes ≤ 150 MB: found 181.2 MB (max of runs 175 MB, 181.2 MB, 178 MB)",
            "::warning title=possible regression%3A wakeups.count::wakeups.count vs baseline: 40 → 46, Δ +6 (+15 %25), 95 %25 interval [-1, +12], p = 0.071; expected no increase beyond 5 (max of 10 %25 of the baseline and 5)"
                + note,
        ]
        #expect(GitHubAnnotations().lines(GateVerdictFixture.realistic) == expected)
    }

    @Test func writesTenOfEachKindByEnergyAtStakeThenOneNotice() {
        var verdict = GateVerdictFixture.realistic
        verdict.warnings = []
        // In ascending order of energy, so that only the ranking can put the largest first.
        verdict.checks =
            GateVerdictFixture.many(25, .fail) + GateVerdictFixture.many(12, .warn)
            + GateVerdictFixture.many(3, .inconclusive, subject: "wakeups.count") + GateVerdictFixture.many(30, .pass)
        let lines = GitHubAnnotations().lines(verdict)
        #expect(lines.count == 21)
        let errors = lines.filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 10)
        #expect(errors.first!.hasSuffix("::energy.by_category.cpu ≤ 1 J: found 25 J"))
        #expect(errors.last!.hasSuffix("::energy.by_category.cpu ≤ 1 J: found 16 J"))
        // Warnings 11 J down to 2 J: at 2 J the warning outranks the inconclusive result.
        let warnings = lines.filter { $0.hasPrefix("::warning ") }
        #expect(warnings.count == 10)
        #expect(warnings.first!.hasSuffix("found 12 J") && warnings.last!.hasSuffix("found 3 J"))
        #expect(warnings.allSatisfy { $0.hasPrefix("::warning title=budget%3A energy.by_category.cpu::") })
        #expect(lines.last == "::notice title=drain gate::15 more failing checks and 5 more warnings are in the step summary")

        verdict.checks = GateVerdictFixture.many(10, .fail) + GateVerdictFixture.many(10, .inconclusive, subject: "wakeups.count")
        let exact = GitHubAnnotations().lines(verdict)
        #expect(exact.count == 20 && !exact.contains { $0.hasPrefix("::notice") })
        #expect(exact[10] == "::warning title=budget%3A wakeups.count::wakeups.count ≤ 1 J: found 10 J")

        verdict.checks = GateVerdictFixture.many(11, .warn)
        #expect(GitHubAnnotations().lines(verdict).last == "::notice title=drain gate::1 more warning is in the step summary")
    }

    @Test func hostileStringsCannotBreakOrForgeACommand() throws {
        var verdict = GateVerdictFixture.hostile
        let general = verdict.warnings
        #expect(!general.isEmpty)
        for line in GitHubAnnotations().lines(verdict).filter({ $0.hasPrefix("::warning title=drain gate::") }) {
            for raw in ["\n", "\r", "\u{1B}", "\u{9B}", "\u{202E}"] { #expect(!line.contains(raw)) }
            let message = line.dropFirst("::warning title=drain gate::".count)
            #expect(general.map { GateVerdictFixture.neutralized($0) }.contains(unescape(message)))
        }
        verdict.warnings = []
        let lines = GitHubAnnotations().lines(verdict)
        let annotated = verdict.checks.filter { [.fail, .warn, .inconclusive].contains($0.status) }
        #expect(lines.count == annotated.count)
        for (line, check) in zip(lines, annotated) {
            for raw in ["\n", "\r", "\u{1B}", "\u{9B}", "\u{202E}"] { #expect(!line.contains(raw)) }
            #expect(line.hasPrefix(check.status == .fail ? "::error title=" : "::warning title="))
            let afterName = line.drop(while: { $0 != " " }).dropFirst("title=".count + 1)
            let separator = try #require(afterName.range(of: "::"))
            let title = afterName[..<separator.lowerBound]
            #expect(!title.contains(":") && !title.contains(","))
            #expect(unescape(title) == GateVerdictFixture.neutralized(check.title.cut(toScalars: GitHubAnnotations.titleLimit)))
            let message = afterName[separator.upperBound...]
            #expect(unescape(message) == GateVerdictFixture.neutralized(check.statement + "\n" + check.note!))
        }
    }

    @Test func githubModeFollowsTheActionsEnvironment() {
        #expect(GitHubMode.auto.isEnabled(environment: ["GITHUB_ACTIONS": "true"]))
        #expect(!GitHubMode.auto.isEnabled(environment: ["GITHUB_ACTIONS": "false"]))
        #expect(!GitHubMode.auto.isEnabled(environment: [:]))
        #expect(GitHubMode.always.isEnabled(environment: [:]))
        #expect(!GitHubMode.never.isEnabled(environment: ["GITHUB_ACTIONS": "true"]))
        #expect(GitHubMode(rawValue: "always") == .always)
    }
}
