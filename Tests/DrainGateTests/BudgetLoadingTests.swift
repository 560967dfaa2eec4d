import DrainGate
import DrainReport
import Testing

@Suite struct BudgetLoadingTests {
    /// The shape issue 9 fixes as the contract.
    let contract = """
        budgets:
          energy.total_j: {max: 12 J}
          energy.by_category.radio: {max: 4 J, level: warn}
          memory.peak_bytes: {max: 180 MB, aggregate: max}
        findings:
          NET-PERIODIC: {max: 0}
          new: {max: 0}
        regression: {relative: 10%, absolute: {energy.total_j: 0.5 J}}
        """

    func failure(_ yaml: String) -> BudgetError? {
        do {
            _ = try Budget.parse(yaml, path: "drain-budget.yml")
            return nil
        } catch {
            return error
        }
    }

    @Test func readsTheContractShape() throws {
        let budget = try Budget.parse(contract, path: "drain-budget.yml")
        #expect(budget.metrics.map(\.metric.name) == ["energy.total_j", "energy.by_category.radio", "memory.peak_bytes"])
        #expect(budget.metrics[0].max == 12 && budget.metrics[0].level == .error && budget.metrics[0].aggregate == .median)
        #expect(budget.metrics[1].max == 4 && budget.metrics[1].level == .warn)
        #expect(budget.metrics[2].max == 180_000_000 && budget.metrics[2].aggregate == .max)
        #expect(budget.findings.map(\.key) == [.rule("NET-PERIODIC"), .new])
        #expect(budget.regression.relative == 0.10)
        #expect(budget.regression.absolute == ["energy.total_j": 0.5])
        #expect(budget.model == nil)
    }

    @Test func memoryDefaultsToTheMaximumOfTheRuns() throws {
        let budget = try Budget.parse("budgets:\n  memory.p95_bytes: {max: 1 GB}\n  wakeups.per_s: {max: 0.5 /s}\n", path: "b.yml")
        #expect(budget.metrics.map(\.aggregate) == [.max, .median])
    }

    @Test(arguments: [
        ("budgets:\n  energy.totl_j: {max: 12 J}\n", "2:3: budgets.energy.totl_j: unknown metric"),
        ("budgets:\n  memory.peak_bytes: {max: 12 J}\n", "2:28: budgets.memory.peak_bytes.max: \"12 J\" is not a quantity of memory.peak_bytes (B)"),
        ("budgets:\n  energy.total_j: {level: warn}\n", "budgets.energy.total_j: a limit needs max or min"),
        ("budgets:\n  energy.total_j: {max: 12 J, levle: warn}\n", "budgets.energy.total_j.levle: unknown key"),
        ("budgets:\n  energy.total_j: {max: 12 J, level: loud}\n", "budgets.energy.total_j.level: unknown value \"loud\""),
        ("findings:\n  NET-PERIODICAL: {max: 0}\n", "findings.NET-PERIODICAL: not a rule id of GUIDANCE.md"),
        ("findings:\n  error: {max: -1}\n", "findings.error.max: a count cannot be negative"),
        ("regression: {relative: 0.1}\n", "regression.relative: \"0.1\" is not a percentage"),
        ("regression: {absolute: {memory.peak_bytes: 2 s}}\n", "regression.absolute.memory.peak_bytes: \"2 s\" is not a quantity"),
        ("budget:\n  energy.total_j: {max: 12 J}\n", "1:1: budget: unknown key"),
        ("scenarios:\n  - budgets: {}\n", "scenarios.0.match"),
    ])
    func aBudgetNeverSilentlyPasses(yaml: String, message: String) throws {
        let error = try #require(failure(yaml))
        #expect(error.exitCode == 65)
        #expect(error.description.hasPrefix("drain-budget.yml:"))
        #expect(error.description.contains(message), "\(error.description)")
    }

    @Test func aMissingFileIsUnreadable() throws {
        #expect(throws: BudgetError.self) { try Budget.load(path: "/nonexistent/drain-budget.yml") }
        do {
            _ = try Budget.load(path: "/nonexistent/drain-budget.yml")
        } catch {
            #expect(error.exitCode == 66)
        }
    }

    @Test func scenarioOverridesApplyInOrderAndTheLastMatchWins() throws {
        let budget = try Budget.parse(
            contract + """

                scenarios:
                  - match: "sync-*"
                    budgets:
                      energy.total_j: {max: 20 J}
                      wakeups.per_s: {max: 1 /s}
                    regression: {relative: 25%}
                  - match: "sync-large"
                    budgets:
                      energy.total_j: {max: 40 J, level: warn}
                    findings:
                      NET-PERIODIC: {max: 0, level: off}
                """, path: "b.yml")
        let small = budget.resolved(for: "sync-small")
        #expect(small.metrics.first { $0.metric.name == "energy.total_j" }?.max == 20)
        #expect(small.metrics.map(\.metric.name).last == "wakeups.per_s")
        #expect(small.regression.relative == 0.25)
        #expect(small.regression.absolute == ["energy.total_j": 0.5])
        let large = budget.resolved(for: "sync-large")
        let total = try #require(large.metrics.first { $0.metric.name == "energy.total_j" })
        #expect(total.max == 40 && total.level == .warn)
        #expect(large.findings.first { $0.key == .rule("NET-PERIODIC") }?.level == .off)
        let other = budget.resolved(for: "launch")
        #expect(other.metrics.first { $0.metric.name == "energy.total_j" }?.max == 12)
        #expect(budget.resolved(for: nil) == Budget(metrics: budget.metrics, findings: budget.findings, regression: budget.regression))
    }
}
