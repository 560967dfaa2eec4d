/// Rule settings from a `--config` file: rules switched off and thresholds changed.
///
/// Built only by `load(path:)` or `parse(_:path:)`, which check every rule id, parameter
/// name and value, so the engine can trust it. The empty configuration changes nothing.
///
/// ```yaml
/// rules:
///   CPU-WAKEUPS: { enabled: true, foreground_per_s: 3 }
///   DISK-FREQUENT: { enabled: false }
/// ```
public struct RuleConfiguration: Sendable, Equatable {
    /// One rule's settings.
    public struct RuleSettings: Sendable, Equatable {
        public var enabled: Bool = true
        /// Parameter name → value, for the parameters the file sets.
        public var parameters: [String: Double] = [:]
    }

    /// The file the settings came from; `nil` for the empty configuration.
    public private(set) var path: String?
    /// Rule id → settings, for the rules the file mentions.
    public private(set) var rules: [String: RuleSettings] = [:]

    /// The configuration that changes nothing.
    public init() {}

    init(path: String, rules: [String: RuleSettings]) {
        self.path = path
        self.rules = rules
    }

    /// Whether a rule runs (every rule does unless the file switches it off).
    public func isEnabled(_ rule: String) -> Bool {
        rules[rule]?.enabled ?? true
    }

    /// The value the file sets for a rule's parameter, if any.
    public func value(rule: String, parameter: String) -> Double? {
        rules[rule]?.parameters[parameter]
    }
}
