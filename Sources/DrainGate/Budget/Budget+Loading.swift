import DrainReport
import DrainRules
import DrainTrace
import DrainYAML
import Foundation

extension Budget {
    /// Loads a budget file strictly: an unknown key, metric, rule id or severity, a value
    /// whose unit does not fit its metric, a limit with neither `max` nor `min` — every one
    /// is an error naming the key path and line, so that a budget can never silently pass.
    ///
    /// - Throws: `BudgetError` (`unreadable`: exit 66; anything else: exit 65).
    public static func load(path: String) throws(BudgetError) -> Budget {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileRead.read(path: path, limit: maximumFileBytes)
        } catch {
            switch error {
            case let .unreadable(reason): throw BudgetError(path: path, problem: .unreadable(reason))
            case let .tooLarge(size, limit): throw BudgetError(path: path, problem: .tooLarge(size: size, limit: limit))
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw BudgetError(path: path, problem: .unreadable("the file is not UTF-8 text"))
        }
        return try parse(text, path: path)
    }

    /// The largest budget file read: budgets for hundreds of scenarios fit in a few KiB.
    public static var maximumFileBytes: Int { 1 << 20 }

    /// Parses budget YAML; `path` names it in errors.
    public static func parse(_ text: String, path: String) throws(BudgetError) -> Budget {
        do {
            return try StrictYAMLDecoder().decode(BudgetFile.self, from: text).budget
        } catch {
            throw BudgetError(path: path, problem: .invalid(error))
        }
    }
}

/// A budget file could not be used.
public struct BudgetError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case unreadable(String)
        /// The file holds more than `Budget.maximumFileBytes`.
        case tooLarge(size: Int64, limit: Int)
        case invalid(YAMLError)
    }

    public var path: String
    public var problem: Problem

    /// 66 when the file cannot be read, else 65.
    public var exitCode: Int32 {
        if case .unreadable = problem { 66 } else { 65 }
    }

    public var description: String {
        switch problem {
        case let .unreadable(reason): "\(path): cannot read the budget: \(reason)"
        case let .tooLarge(size, limit):
            "\(path): the file has \(size) bytes; a budget file has at most \(BoundedFileRead.describe(limit: limit))"
        case let .invalid(error): "\(path):\(error.description)"
        }
    }
}

/// The file as written; `budget` is the checked value.
private struct BudgetFile: Decodable {
    var model: String?
    var budgets: MetricLimits?
    var findings: FindingLimits?
    var regression: RegressionSection?
    var scenarios: [ScenarioSection]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case model, budgets, findings, regression, scenarios
    }

    var budget: Budget {
        Budget(
            model: model, metrics: budgets?.limits ?? [], findings: findings?.limits ?? [],
            regression: regression.map {
                RegressionPolicy(
                    relative: $0.relative ?? RegressionPolicy.defaultRelative, absolute: $0.absolute?.floors ?? [:],
                    metrics: $0.metrics ?? [], level: $0.level ?? .error)
            } ?? RegressionPolicy(),
            scenarios: (scenarios ?? []).map { section in
                ScenarioOverride(
                    pattern: section.match, metrics: section.budgets?.limits ?? [], findings: section.findings?.limits ?? [],
                    regression: ScenarioOverride.RegressionOverride(
                        relative: section.regression?.relative, absolute: section.regression?.absolute?.floors ?? [:],
                        metrics: section.regression?.metrics ?? [], level: section.regression?.level))
            })
    }
}

/// A mapping's keys in document order, whatever they are.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// `budgets:`: metric name → `{max, min, level, aggregate}`.
private struct MetricLimits: Decodable {
    var limits: [MetricBudget] = []

    struct Entry: Decodable {
        var max: String?
        var min: String?
        var level: BudgetLevel?
        var aggregate: RunAggregate?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case max, min, level, aggregate
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys {
            guard let metric = MetricCatalog.definition(key.stringValue) else {
                throw decoder.yamlError(
                    .unknownKey, "unknown metric (see docs/gate.md for the metrics a budget can name)", key: key.stringValue,
                    markingKey: true)
            }
            let entry = try container.decode(Entry.self, forKey: key)
            let entryDecoder = try container.superDecoder(forKey: key)
            func quantity(_ text: String?, _ name: String) throws -> Double? {
                guard let text else { return nil }
                guard let value = metric.unit.parse(text) else {
                    throw entryDecoder.yamlError(
                        .invalidValue,
                        "\"\(text)\" is not a quantity of \(metric.name) (\(metric.unit.rawValue)): write a number followed by \(metric.unit.acceptedSuffixes)",
                        key: name)
                }
                return value
            }
            let max = try quantity(entry.max, "max")
            let min = try quantity(entry.min, "min")
            guard max != nil || min != nil else {
                throw decoder.yamlError(.missingValue, "a limit needs max or min", key: key.stringValue)
            }
            limits.append(
                MetricBudget(
                    metric: metric, max: max, min: min, level: entry.level ?? .error,
                    aggregate: entry.aggregate ?? MetricBudget.defaultAggregate(metric)))
        }
    }
}

/// `findings:`: rule id, severity or `new` → `{max, level, aggregate}`.
private struct FindingLimits: Decodable {
    var limits: [FindingBudget] = []

    struct Entry: Decodable {
        var max: Int
        var level: BudgetLevel?
        var aggregate: RunAggregate?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case max, level, aggregate
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let ruleIDs = Set(RuleEngine.allRules.map { $0.description.id })
        for key in container.allKeys {
            let name = key.stringValue
            let budgetKey: FindingBudgetKey
            if name == "new" {
                budgetKey = .new
            } else if let severity = Severity(rawValue: name) {
                budgetKey = .severity(severity)
            } else if ruleIDs.contains(name) {
                budgetKey = .rule(name)
            } else {
                throw decoder.yamlError(
                    .unknownKey, "not a rule id of GUIDANCE.md, a severity (error, warning, info) or new", key: name,
                    markingKey: true)
            }
            let entry = try container.decode(Entry.self, forKey: key)
            guard entry.max >= 0 else {
                throw try container.superDecoder(forKey: key).yamlError(.invalidValue, "a count cannot be negative", key: "max")
            }
            limits.append(FindingBudget(key: budgetKey, max: entry.max, level: entry.level ?? .error, aggregate: entry.aggregate ?? .median))
        }
    }
}

/// `absolute:` inside `regression:`: metric name → floor with its unit.
private struct AbsoluteFloors: Decodable {
    var floors: [String: Double] = [:]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys {
            guard let metric = MetricCatalog.definition(key.stringValue) else {
                throw decoder.yamlError(.unknownKey, "unknown metric", key: key.stringValue, markingKey: true)
            }
            let text = try container.decode(String.self, forKey: key)
            guard let value = metric.unit.parse(text), value >= 0 else {
                throw decoder.yamlError(
                    .invalidValue,
                    "\"\(text)\" is not a quantity of \(metric.name) (\(metric.unit.rawValue)): write a number followed by \(metric.unit.acceptedSuffixes)",
                    key: key.stringValue)
            }
            floors[metric.name] = value
        }
    }
}

private struct RegressionSection: Decodable {
    var relative: Double?
    var absolute: AbsoluteFloors?
    var metrics: [String]?
    var level: BudgetLevel?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case relative, absolute, metrics, level
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try container.decodeIfPresent(String.self, forKey: .relative) {
            guard let share = MetricUnit.ratio.parse(text), share >= 0, text.contains("%") else {
                throw decoder.yamlError(.invalidValue, "\"\(text)\" is not a percentage (write 10%)", key: "relative")
            }
            relative = share
        }
        absolute = try container.decodeIfPresent(AbsoluteFloors.self, forKey: .absolute)
        metrics = try container.decodeIfPresent([String].self, forKey: .metrics)
        for (index, name) in (metrics ?? []).enumerated() where MetricCatalog.definition(name) == nil {
            throw try container.superDecoder(forKey: .metrics).yamlError(.unknownKey, "unknown metric \"\(name)\"", key: String(index))
        }
        level = try container.decodeIfPresent(BudgetLevel.self, forKey: .level)
    }
}

private struct ScenarioSection: Decodable {
    var match: String
    var budgets: MetricLimits?
    var findings: FindingLimits?
    var regression: RegressionSection?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case match, budgets, findings, regression
    }
}
