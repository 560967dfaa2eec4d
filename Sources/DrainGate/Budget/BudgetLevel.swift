/// What a breached limit does: `error` fails the gate, `warn` is reported and passes, `off`
/// turns the limit off (for a scenario override).
public enum BudgetLevel: String, Codable, Sendable, CaseIterable {
    case error, warn, off
}
