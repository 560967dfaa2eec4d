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

/// What `rule` itself finds in a run priced with `model`, before the engine merges the findings
/// that share a key and title (`Finding.mergedByKey`) and limits their time ranges.
func ruleFindings<R: Rule>(_ rule: R.Type, _ timeline: Timeline, model: DeviceModel = TestModel.phone) -> [Finding] {
    let context = RuleContext(priced: Pricer(model: model).price(timeline), model: model, parameters: [:])
    guard case .findings(let found) = R().evaluate(context) else { return [] }
    return found
}

/// Checks that the engine reported `occurrences`, the rule's findings of one problem, as one
/// finding: the first occurrence's message and evidence, an `occurrences` count, every
/// occurrence's time ranges and the sum of their energies.
func isMerged(_ merged: [Finding], from occurrences: [Finding]) -> Bool {
    guard merged.count == 1, let finding = merged.first, let first = occurrences.first, occurrences.count > 1 else { return false }
    let energies = occurrences.compactMap(\.energyJ)
    let ranges = occurrences.flatMap(\.timeRanges).sorted { ($0.startS, $0.endS) < ($1.startS, $1.endS) }
    return finding.number("occurrences") == Double(occurrences.count)
        && finding.evidence.dropLast().elementsEqual(first.evidence)
        && finding.message.hasPrefix(first.message) && finding.message.contains("Seen \(occurrences.count) times in this run")
        && finding.timeRanges == ranges
        && (energies.isEmpty ? finding.energyJ == nil : nearly(finding.energyJ, energies.reduce(0, +)))
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
