import DrainReport
import DrainRules
import Testing

/// One example of one rule, as a test argument.
struct RuleExample: Sendable, CustomTestStringConvertible {
    var rule: any Rule.Type
    var scenario: Scenario
    var triggering: Bool

    var testDescription: String {
        "\(rule.description.id) \(triggering ? "triggers on" : "passes") \(scenario.name)"
    }

    static let all: [RuleExample] = RuleEngine.allRules.flatMap { rule in
        rule.description.triggeringExamples.map { RuleExample(rule: rule, scenario: $0, triggering: true) }
            + rule.description.nonTriggeringExamples.map { RuleExample(rule: rule, scenario: $0, triggering: false) }
    }
}

@Suite struct RuleExamplesTests {
    @Test(arguments: RuleExample.all)
    func example(_ example: RuleExample) throws {
        let rule = example.rule.description
        let evaluation = evaluate(example.scenario.timeline(for: TestModel.phone))
        let findings = evaluation.findings(of: rule.id)
        let status = try #require(evaluation.status(of: rule.id))
        if example.triggering {
            let expected = try #require(example.scenario.expectedSeverity, "a triggering example states its severity")
            try #require(!findings.isEmpty)
            #expect(findings.map(\.severity).max() == expected)
            #expect(status.rawValue == expected.rawValue)
            for finding in findings {
                #expect(finding.area == rule.area)
                #expect(!finding.evidence.isEmpty)
                #expect(!finding.fix.isEmpty && finding.fix == rule.fix)
                #expect(!finding.message.isEmpty)
                #expect(finding.guidance == rule.guidance && finding.source == rule.source)
                #expect(!finding.timeRanges.isEmpty)
                #expect(finding.timeRanges.allSatisfy { $0.startS <= $0.endS })
            }
        } else {
            #expect(example.scenario.expectedSeverity == nil)
            #expect(findings.isEmpty, "\(findings.map(\.message))")
            #expect(status == .pass || status == .notApplicable)
        }
    }

    /// The registry's order and ids are checked against the documents in `RuleRegistryTests`.
    @Test func everyRuleIsCompletelyDescribed() {
        let ids = RuleEngine.descriptions.map(\.id)
        #expect(Set(ids).count == ids.count, "rule ids are unique")
        for rule in RuleEngine.descriptions {
            #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty, "\(rule.id)")
            #expect(!rule.guidance.isEmpty && !rule.source.isEmpty && !rule.fix.isEmpty && !rule.parameters.isEmpty)
            let names = rule.parameters.map(\.name)
            #expect(Set(names).count == names.count, "\(rule.id) parameter names are unique")
            #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" } }, "\(rule.id) snake_case")
            #expect(rule.parameters.allSatisfy { $0.defaultValue >= 0 && !$0.unit.isEmpty && !$0.summary.isEmpty })
        }
    }
}
