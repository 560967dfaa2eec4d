import DrainTrace
import Foundation
import Yams

extension RuleConfiguration {
    /// Reads and checks a `--config` file. Rule ids and parameter names must be those of
    /// `RuleEngine.allRules`, parameters finite numbers ≥ 0, `enabled` a boolean; any other
    /// content is an error naming the file, line and column.
    public static func load(path: String) throws(RuleConfigurationError) -> RuleConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RuleConfigurationError(.unreadable, path: path, message: "cannot read the rule configuration file")
        }
        guard let yaml = String(data: data, encoding: .utf8) else {
            throw RuleConfigurationError(.unreadable, path: path, message: "the rule configuration file is not UTF-8 text")
        }
        return try parse(yaml, path: path)
    }

    /// Checks the text of a configuration file; `path` names it in errors. An empty document
    /// is the empty configuration.
    public static func parse(_ yaml: String, path: String) throws(RuleConfigurationError) -> RuleConfiguration {
        let document: Node?
        do {
            document = try Yams.compose(yaml: yaml)
        } catch {
            throw syntaxError(error, path: path)
        }
        let reader = Reader(path: path)
        guard let document else { return RuleConfiguration(path: path, rules: [:]) }
        let top = try reader.mapping(document, "the top level must be a mapping with a `rules` key")
        var rules: [String: RuleSettings] = [:]
        for (key, value) in top {
            let name = try reader.key(key)
            guard name == "rules" else {
                throw reader.error(.structure, at: key, "unknown key \(UntrustedText.quoted(name)); the only top-level key is `rules`")
            }
            guard !isNull(value) else { continue }
            for (ruleKey, settingsNode) in try reader.mapping(value, "`rules` must map rule ids to their settings") {
                let id = try reader.key(ruleKey)
                guard let rule = RuleEngine.descriptions.first(where: { $0.id == id }) else {
                    let known = RuleEngine.descriptions.map(\.id).joined(separator: ", ")
                    throw reader.error(.unknownRule, at: ruleKey, "unknown rule id \(UntrustedText.quoted(id)); known rules: \(known)")
                }
                rules[id] = try reader.settings(settingsNode, of: rule)
            }
        }
        return RuleConfiguration(path: path, rules: rules)
    }

    /// Walks the YAML nodes, turning every surprise into an error at the node's position.
    private struct Reader {
        var path: String

        func error(_ kind: RuleConfigurationError.Kind, at node: Node, _ message: String) -> RuleConfigurationError {
            RuleConfigurationError(kind, path: path, line: node.mark?.line, column: node.mark?.column, message: message)
        }

        func mapping(_ node: Node, _ message: String) throws(RuleConfigurationError) -> Node.Mapping {
            guard case .mapping(let mapping) = node else { throw error(.structure, at: node, message) }
            return mapping
        }

        func key(_ node: Node) throws(RuleConfigurationError) -> String {
            guard case .scalar(let scalar) = node else { throw error(.structure, at: node, "expected a name here") }
            return scalar.string
        }

        func settings(_ node: Node, of rule: RuleDescription) throws(RuleConfigurationError) -> RuleSettings {
            var settings = RuleSettings()
            guard !isNull(node) else { return settings }
            let message = "the settings of \(rule.id) must be a mapping (`enabled` and parameters)"
            for (key, value) in try mapping(node, message) {
                let name = try self.key(key)
                if name == "enabled" {
                    guard hasTag(value, .bool), let enabled = value.bool else {
                        throw error(.invalidValue, at: value, "`enabled` of \(rule.id) must be true or false")
                    }
                    settings.enabled = enabled
                    continue
                }
                guard let parameter = rule.parameters.first(where: { $0.name == name }) else {
                    let known = rule.parameters.map(\.name).joined(separator: ", ")
                    throw error(.unknownParameter, at: key, "unknown parameter \(UntrustedText.quoted(name)) for \(rule.id); its parameters: \(known)")
                }
                guard hasTag(value, .int) || hasTag(value, .float), let number = value.float,
                      number.isFinite, number >= 0
                else {
                    throw error(
                        .invalidValue, at: value,
                        "\(rule.id) \(parameter.name) must be a finite number ≥ 0 (in \(parameter.unit)), not \(UntrustedText.quoted(value.string ?? "a collection"))")
                }
                settings.parameters[name] = number
            }
            return settings
        }
    }

    private static func isNull(_ node: Node) -> Bool {
        hasTag(node, .null)
    }

    /// Whether the node resolved to a YAML core type (an unquoted `3` is an int, `"3"` a string).
    private static func hasTag(_ node: Node, _ name: Tag.Name) -> Bool {
        node.tag.rawValue == name.rawValue
    }

    private static func syntaxError(_ error: any Error, path: String) -> RuleConfigurationError {
        let mark: Mark?
        let problem: String
        switch error as? YamlError {
        case .scanner(_, let text, let at, _), .parser(_, let text, let at, _), .composer(_, let text, let at, _):
            mark = at
            problem = text
        case .duplicatedKeysInMapping(let duplicates, let context):
            mark = context.mark
            problem = "duplicate key(s) " + duplicates.map { UntrustedText.quoted($0) }.joined(separator: ", ")
        default:
            mark = nil
            problem = String(describing: error)
        }
        return RuleConfigurationError(
            .syntax, path: path, line: mark?.line, column: mark?.column, message: "invalid YAML: \(problem)")
    }
}
