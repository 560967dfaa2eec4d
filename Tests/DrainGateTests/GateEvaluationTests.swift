@testable import DrainGate
import DrainReport
import Testing

@Suite struct GateEvaluationTests {
    typealias F = GateFixture

    func check(_ verdict: GateVerdict, _ id: String) throws -> GateCheck {
        try #require(verdict.checks.first { $0.id == id }, "no check \(id) in \(verdict.checks.map(\.id))")
    }

    @Test func anErrorBudgetBreachFailsAndSaysWhatWasExpectedAndFound() throws {
        let runs = [13.1, 13.4, 14.0].map { F.run(totalJ: $0) }
        let verdict = Gate.evaluate(runs, budget: try F.budget("budgets:\n  energy.total_j: {max: 12 J}\n"), baseline: nil, options: F.options)
        let total = try check(verdict, "budget:energy.total_j")
        #expect(total.status == .fail)
        #expect(total.expected == "≤ 12 J")
        #expect(total.found == "13.4 J (median of runs 13.1 J, 13.4 J, 14 J)")
        #expect(total.value == 13.4 && total.runs == [13.1, 13.4, 14.0])
        // 1.4 J over the budget is the energy at stake.
        #expect(abs(total.energyImpactJ - 1.4) < 1e-12)
        #expect(verdict.outcome == .fail && verdict.exitCode == 1)
    }

    @Test func aWarnLevelBreachPassesTheGate() throws {
        let runs = [13.1, 13.4, 14.0].map { F.run(totalJ: $0) }
        let verdict = Gate.evaluate(
            runs, budget: try F.budget("budgets:\n  energy.total_j: {max: 12 J, level: warn}\n  wakeups.per_s: {max: 5 /s}\n"),
            baseline: nil, options: F.options)
        #expect(try check(verdict, "budget:energy.total_j").status == .warn)
        #expect(try check(verdict, "budget:wakeups.per_s").status == .pass)
        #expect(verdict.outcome == .pass && verdict.exitCode == 0)
        #expect(verdict.checks.map(\.status) == [.warn, .pass])
    }

    @Test func memoryIsJudgedOnItsHighestRunByDefault() throws {
        let runs = [150e6, 170e6, 185e6].map { F.run(totalJ: 10, memoryBytes: $0) }
        let verdict = Gate.evaluate(runs, budget: try F.budget("budgets:\n  memory.peak_bytes: {max: 180 MB}\n"), baseline: nil, options: F.options)
        let memory = try check(verdict, "budget:memory.peak_bytes")
        #expect(memory.status == .fail && memory.value == 185e6)
        #expect(memory.found == "185 MB (max of runs 150 MB, 170 MB, 185 MB)")
    }

    @Test func aBudgetOnAMetricNoRunHasFails() throws {
        let runs = [F.run(totalJ: 10, memoryBytes: nil)]
        let verdict = Gate.evaluate(runs, budget: try F.budget("budgets:\n  memory.peak_bytes: {max: 180 MB}\n"), baseline: nil, options: F.options)
        let memory = try check(verdict, "budget:memory.peak_bytes")
        #expect(memory.status == .fail)
        #expect(memory.found == "not measured in any of the 1 run")
        #expect(verdict.exitCode == 1)
    }

    @Test func aMinimumBudgetJudgesScoresFromBelow() throws {
        var run = F.run(totalJ: 10)
        run.scores.energy = 42
        let verdict = Gate.evaluate([run], budget: try F.budget("budgets:\n  scores.energy: {min: 50}\n"), baseline: nil, options: F.options)
        let score = try check(verdict, "budget:scores.energy")
        #expect(score.status == .fail && score.expected == "≥ 50" && score.found == "42")
    }

    @Test func findingsBudgetsCountRulesAtWarningOrAboveAndSeverities() throws {
        let runs = [
            F.run(totalJ: 10, findings: [F.finding("NET-PERIODIC", .warning, subject: "a.example.com", energyJ: 2), F.finding("NET-PERIODIC", .info, subject: "b.example.com")]),
            F.run(totalJ: 10, findings: [F.finding("NET-PERIODIC", .info, subject: "b.example.com")]),
            F.run(totalJ: 10, findings: [F.finding("NET-PERIODIC", .error, subject: "a.example.com", energyJ: 3)]),
        ]
        let budget = try F.budget("findings:\n  NET-PERIODIC: {max: 0}\n  info: {max: 1}\n  error: {max: 0, aggregate: max}\n")
        let verdict = Gate.evaluate(runs, budget: budget, baseline: nil, options: F.options)
        // Counts at warning or above per run: 1, 0, 1 → median 1 > 0.
        let periodic = try check(verdict, "findings:NET-PERIODIC")
        #expect(periodic.status == .fail && periodic.runs == [1, 0, 1] && periodic.value == 1)
        #expect(periodic.note == "keys: NET-PERIODIC:a.example.com")
        // Median energy of the counted findings per run: 2, 0, 3 → 2 J.
        #expect(periodic.energyImpactJ == 2)
        #expect(try check(verdict, "findings:info").status == .pass)
        #expect(try check(verdict, "findings:error").status == .fail)
    }

    @Test func newFindingsNeedABaselineAndCountKeysTheBaselineRarelyHad() throws {
        let budget = try F.budget("findings:\n  new: {max: 0}\n")
        let candidate = (0..<4).map { index in
            F.run(totalJ: 10, findings: [F.finding("DISK-REWRITE", .warning, subject: "/tmp/state-\(1000 + index).json", energyJ: 1)])
        }
        let skipped = Gate.evaluate(candidate, budget: budget, baseline: nil, options: F.options)
        #expect(try check(skipped, "findings:new").status == .skipped)
        #expect(skipped.exitCode == 0)

        // The baseline had the key in 1 of 4 runs (a quarter: still rare) and another one always.
        let baseline = F.baseline(
            [F.run(totalJ: 10, findings: [F.finding("DISK-REWRITE", .warning, subject: "/tmp/state-2000.json")])]
                + (0..<3).map { _ in F.run(totalJ: 10, findings: [F.finding("CPU-POLLING", .warning, subject: "sleep")]) })
        let verdict = Gate.evaluate(candidate, budget: budget, baseline: baseline, options: F.options)
        let new = try check(verdict, "findings:new")
        #expect(new.status == .fail && new.value == 1)
        let key = try check(verdict, "new:DISK-REWRITE:/tmp/state-{n}.json")
        #expect(key.status == .warn && key.kind == .newFinding)
        #expect(key.found == "in 4 of 4 runs, 1 of 4 baseline runs")
        let resolved = try check(verdict, "resolved:CPU-POLLING:sleep")
        #expect(resolved.status == .improvement && resolved.kind == .resolvedFinding)
    }

    func regression(_ base: [Double], _ candidate: [Double], budget: String = "", options: GateOptions = F.options) throws -> (GateVerdict, GateCheck) {
        let verdict = Gate.evaluate(
            candidate.map { F.run(totalJ: $0) }, budget: budget.isEmpty ? nil : try F.budget(budget),
            baseline: F.baseline(base.map { F.run(totalJ: $0) }), options: options)
        return (verdict, try check(verdict, "regression:energy.total_j"))
    }

    @Test func aConfirmedRegressionFailsWithItsStatistics() throws {
        let (verdict, total) = try regression([10.0, 10.2, 9.9, 10.1, 9.95], [12.0, 12.3, 11.9, 12.1, 12.2])
        #expect(total.status == .fail)
        let detail = try #require(total.regression)
        #expect(detail.baseline == 10.0 && detail.candidate == 12.1)
        #expect(abs(detail.delta - 2.1) < 1e-9)
        // Tolerance: max(0.1 J floor, 10 % of 10 J) = 1 J; the interval lies above it.
        #expect(abs(detail.tolerance - 1.0) < 1e-12)
        #expect(try #require(detail.intervalLow) > 1.0)
        // Complete separation of 5 and 5 runs: p = 2 / C(10,5) = 2/252.
        #expect(abs(try #require(detail.pValue) - 2.0 / 252) < 1e-12)
        #expect(total.found.hasPrefix("10 J → 12.1 J, Δ +2.1 J (+21 %), 95 % interval [+"))
        #expect(total.found.hasSuffix("p = 0.0079"))
        #expect(verdict.exitCode == 1)
    }

    @Test func anImprovementPassesAndSaysHowToTightenTheBaseline() throws {
        let (verdict, total) = try regression([12.0, 12.3, 11.9, 12.1, 12.2], [10.0, 10.2, 9.9, 10.1, 10.0])
        #expect(total.status == .improvement)
        #expect(total.note?.contains("--save-baseline") == true)
        #expect(verdict.exitCode == 0)
    }

    @Test func smallNoiseIsUnchanged() throws {
        let (_, total) = try regression([10.0, 10.2, 9.9, 10.1, 10.0], [10.1, 10.3, 10.0, 10.2, 9.9])
        #expect(total.status == .pass)
    }

    @Test func anEstimatePastTheToleranceWhoseIntervalCrossesItIsInconclusive() throws {
        // Median 12 against 10: past the 1 J tolerance, but the candidate's spread lets the
        // interval reach below it.
        let base = [10.0, 10.1, 9.9, 10.0, 10.2]
        let candidate = [9.0, 12.0, 14.0, 10.5, 12.5]
        let (verdict, total) = try regression(base, candidate)
        #expect(total.status == .inconclusive)
        #expect(verdict.exitCode == 0)
        let strict = GateOptions(failOnInconclusive: true, generator: "drain test", host: F.options.host)
        let (strictVerdict, _) = try regression(base, candidate, options: strict)
        #expect(strictVerdict.exitCode == 1 && strictVerdict.outcome == .fail)
    }

    @Test func oneRunPerSideIsJudgedByThresholdsAlone() throws {
        let (verdict, total) = try regression([10.0], [11.5])
        #expect(total.status == .fail)
        #expect(total.regression?.intervalLow == nil && total.regression?.pValue == nil)
        #expect(total.note == "no noise estimate (one run on a side): thresholds only")
        #expect(verdict.warnings.contains("one run on a side gives no noise estimate: regressions are judged by thresholds only"))
        let (_, within) = try regression([10.0], [10.9])
        #expect(within.status == .pass)
    }

    @Test func fewerThanFourRunsPerSideSayWhySignificanceCannotBeReached() throws {
        let (verdict, total) = try regression([10.0, 10.1, 9.9], [12.0, 12.1, 11.9])
        #expect(total.regression?.pValue == 0.1)
        #expect(total.note?.contains("cannot reach significance") == true)
        #expect(verdict.warnings.contains("3 runs against 3 baseline runs: significance needs at least 4 runs per side"))
    }

    @Test func theRegressionSectionSetsToleranceLevelAndMetrics() throws {
        let budget = "regression: {relative: 30%, level: warn, metrics: [wakeups.per_s], absolute: {energy.total_j: 0.5 J}}\n"
        let (verdict, total) = try regression([10.0, 10.2, 9.9, 10.1, 10.0], [12.0, 12.3, 11.9, 12.1, 12.2], budget: budget)
        // 30 % of 10 J = 3 J tolerance: the 2.1 J rise is within it.
        #expect(total.status == .pass && abs(total.regression!.tolerance - 3) < 1e-12)
        #expect(try check(verdict, "regression:wakeups.per_s").status == .pass)
        let (_, warned) = try regression([10.0, 10.2, 9.9, 10.1, 10.0], [14.0, 14.3, 13.9, 14.1, 14.2], budget: budget)
        #expect(warned.status == .warn)
    }

    @Test func aBaselineFromAnotherMachineIsAWarning() throws {
        var baseline = F.baseline([10.0, 10.1].map { F.run(totalJ: $0) })
        baseline.host = HostInfo(cpu: "CPU B", cores: 8)
        let verdict = Gate.evaluate([F.run(totalJ: 10)], budget: nil, baseline: baseline, options: F.options)
        #expect(verdict.warnings.first?.hasPrefix("the baseline was made on another machine (CPU B, 8 cores) than these runs (CPU A, 2 cores)") == true)
    }

    @Test func theSameInputsGiveTheSameVerdict() throws {
        let first = try regression([10.0, 10.2, 9.9, 10.1, 10.0, 10.3], [10.6, 11.0, 10.4, 10.9, 10.7, 11.2])
        let second = try regression([10.0, 10.2, 9.9, 10.1, 10.0, 10.3], [10.6, 11.0, 10.4, 10.9, 10.7, 11.2])
        #expect(first.0 == second.0)
    }

    @Test func checksAreOrderedFailuresFirstThenByEnergyAtStake() throws {
        let runs = [F.run(totalJ: 20)]
        let budget = try F.budget("budgets:\n  energy.by_category.radio: {max: 9 J}\n  energy.total_j: {max: 12 J}\n  wakeups.per_s: {max: 1 /s, level: warn}\n  energy.average_mw: {max: 1 W}\n")
        let verdict = Gate.evaluate(runs, budget: budget, baseline: nil, options: F.options)
        // total is 8 J over, radio (10 J) 1 J over; wakeups warn; power within.
        #expect(verdict.checks.map(\.id) == ["budget:energy.total_j", "budget:energy.by_category.radio", "budget:wakeups.per_s", "budget:energy.average_mw"])
    }
}
