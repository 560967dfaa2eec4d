import DrainTrace
import DrainYAML

extension RuleConfiguration {
    /// Reads and checks a `--config` file. Rule ids and parameter names must be those of
    /// `RuleEngine.allRules`, parameters finite numbers ≥ 0, `enabled` a boolean; any other
    /// content is an error naming the file, line and column.
    public static func load(path: String) throws(RuleConfigurationError) -> RuleConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileRead.read(path: path, limit: maximumFileBytes)
        } catch {
            switch error {
            case let .unreadable(reason):
                throw RuleConfigurationError(.unreadable, path: path, message: "cannot read the rule configuration file: \(reason)")
            case let .tooLarge(size, limit):
                throw RuleConfigurationError(
                    .tooLarge, path: path,
                    message: "the file has \(size) bytes; a rule configuration file has at most \(BoundedFileRead.describe(limit: limit))")
            }
        }
        guard let yaml = String(validating: bytes, as: UTF8.self) else {
            throw RuleConfigurationError(.unreadable, path: path, message: "the rule configuration file is not UTF-8 text")
        }
        return try parse(yaml, path: path)
    }

    /// The largest configuration file read: a few hundred lines set every rule's parameters.
    public static var maximumFileBytes: Int { 1 << 20 }

    /// Checks the text of a configuration file; `path` names it in errors. An empty document
    /// is the empty configuration.
    public static func parse(_ yaml: String, path: String) throws(RuleConfigurationError) -> RuleConfiguration {
        do {
            guard let document = try YAMLDocument.parse(yaml) else { return RuleConfiguration(path: path, rules: [:]) }
            return RuleConfiguration(path: path, rules: try StrictYAMLDecoder().decode(File.self, from: document).rules)
        } catch {
            throw RuleConfigurationError(error, path: path)
        }
    }

    /// The document: `rules`, rule id → settings, each checked against the rule's description.
    private struct File: Decodable {
        var rules: [String: RuleSettings] = [:]

        init(from decoder: any Decoder) throws {
            let top = try Self.mapping(decoder, else: "the top level must be a mapping with a `rules` key")
            for key in top.allKeys {
                guard key.stringValue == "rules" else {
                    let message = "unknown key \(UntrustedText.quoted(key.stringValue)); the only top-level key is `rules`"
                    throw decoder.yamlError(.structure, message, key: key.stringValue, markingKey: true)
                }
                guard try !top.decodeNil(forKey: key) else { continue }
                let rulesDecoder = try top.superDecoder(forKey: key)
                let rules = try Self.mapping(rulesDecoder, else: "`rules` must map rule ids to their settings")
                for ruleKey in rules.allKeys {
                    let id = ruleKey.stringValue
                    guard let rule = RuleEngine.descriptions.first(where: { $0.id == id }) else {
                        let known = RuleEngine.descriptions.map(\.id).joined(separator: ", ")
                        throw rulesDecoder.yamlError(
                            .unknownRule, "unknown rule id \(UntrustedText.quoted(id)); known rules: \(known)", key: id, markingKey: true)
                    }
                    let settings = try rules.decodeNil(forKey: ruleKey) ? nil : try rules.superDecoder(forKey: ruleKey)
                    self.rules[id] = try settings.map { try Self.settings($0, of: rule) } ?? RuleSettings()
                }
            }
        }

        /// The decoder's mapping, or a `structure` error saying what belongs there.
        private static func mapping(_ decoder: any Decoder, else message: String) throws -> KeyedDecodingContainer<Name> {
            do {
                return try decoder.container(keyedBy: Name.self)
            } catch {
                throw decoder.yamlError(.structure, message)
            }
        }

        /// `enabled` and parameters of one rule, each value checked.
        private static func settings(_ decoder: any Decoder, of rule: RuleDescription) throws -> RuleSettings {
            let values = try mapping(decoder, else: "the settings of \(rule.id) must be a mapping (`enabled` and parameters)")
            var settings = RuleSettings()
            for key in values.allKeys {
                let name = key.stringValue
                if name == "enabled" {
                    guard let enabled = try? values.decode(Bool.self, forKey: key) else {
                        throw decoder.yamlError(.invalidValue, "`enabled` of \(rule.id) must be true or false", key: name)
                    }
                    settings.enabled = enabled
                    continue
                }
                guard let parameter = rule.parameters.first(where: { $0.name == name }) else {
                    let known = rule.parameters.map(\.name).joined(separator: ", ")
                    throw decoder.yamlError(
                        .unknownParameter, "unknown parameter \(UntrustedText.quoted(name)) for \(rule.id); its parameters: \(known)",
                        key: name, markingKey: true)
                }
                guard let number = try? values.decode(Double.self, forKey: key), number >= 0 else {
                    let text = try values.decodeNil(forKey: key) ? "" : (try? values.decode(String.self, forKey: key)) ?? "a collection"
                    throw decoder.yamlError(
                        .invalidValue,
                        "\(rule.id) \(parameter.name) must be a finite number ≥ 0 (in \(parameter.unit)), not \(UntrustedText.quoted(text))",
                        key: name)
                }
                settings.parameters[name] = number
            }
            return settings
        }
    }

    /// A key known only by its name: rule ids and parameter names are checked against the rules.
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension YAMLError.Kind {
    /// YAML, but not shaped like a rule configuration (`RuleConfigurationError.Kind.structure`).
    static let structure = YAMLError.Kind(RuleConfigurationError.Kind.structure.rawValue)
    static let unknownRule = YAMLError.Kind(RuleConfigurationError.Kind.unknownRule.rawValue)
    static let unknownParameter = YAMLError.Kind(RuleConfigurationError.Kind.unknownParameter.rawValue)
}

extension RuleConfigurationError {
    /// The error for a YAML or shape error of the file at `path`. The loader's own kinds and
    /// DrainYAML's `syntax` and `invalidValue` share the names of `Kind`; text the YAML reader
    /// refuses is a syntax error (the file was read); any other DrainYAML error is
    /// `structure`, with its key path.
    init(_ error: YAMLError, path: String) {
        let kind: Kind, message: String
        if error.kind == .unreadable {
            (kind, message) = (.syntax, error.message)
        } else if let own = Kind(rawValue: error.kind.rawValue) {
            (kind, message) = (own, error.message)
        } else {
            (kind, message) = (.structure, error.keyPath.isEmpty ? error.message : "\(error.dottedKeyPath): \(error.message)")
        }
        self.init(kind, path: path, line: error.line, column: error.column, message: message)
    }
}
