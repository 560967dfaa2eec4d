import DrainModel
import DrainReport
import DrainRules
import DrainTrace

/// Prices a run with the test model and evaluates every rule over it.
func evaluate(
    _ timeline: Timeline, model: DeviceModel = TestModel.phone, configuration: RuleConfiguration = RuleConfiguration()
) -> RuleEvaluation {
    RuleEngine(model: model, configuration: configuration).evaluate(Pricer(model: model).price(timeline))
}

extension RuleEvaluation {
    func findings(of rule: String) -> [Finding] { findings.filter { $0.rule == rule } }

    func status(of rule: String) -> RuleResult.Status? { results.first { $0.id == rule }?.status }

    func result(of rule: String) -> RuleResult? { results.first { $0.id == rule } }
}

extension Finding {
    /// The value of the evidence named `name` (the first, when several share it).
    func number(_ name: String) -> Double? { evidence.first { $0.name == name }?.value }

    func texts(_ name: String) -> [String] { evidence.filter { $0.name == name }.compactMap(\.text) }
}

/// A configuration parsed from YAML text, for tests that change thresholds.
func configuration(_ yaml: String) throws -> RuleConfiguration {
    try RuleConfiguration.parse(yaml, path: "test.yaml")
}
