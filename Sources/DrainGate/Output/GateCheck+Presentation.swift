/// The words every gate output shares, so a check reads the same in a terminal, a step summary,
/// a test report and an annotation. All of it is raw text holding untrusted strings (subjects
/// are finding keys with host names and paths): each output escapes it for where it goes.
extension GateCheck {
    /// The check as one sentence: `energy.total_j ≤ 12 J: found 13.4 J (median of runs …)`,
    /// `energy.total_j vs baseline: 12.3 J → 13.9 J, Δ +1.6 J …; expected no increase beyond …`.
    var statement: String {
        switch kind {
        case .budget: "\(subject) \(expected): found \(found)"
        case .findings: "findings \(subject) \(expected): found \(found)"
        case .regression: "\(subject) vs baseline: \(found); expected \(expected)"
        case .newFinding: "new finding \(subject): \(found); expected \(expected)"
        case .resolvedFinding: "resolved finding \(subject): \(found)"
        case .baseline: "baseline required: \(found)"
        }
    }

    /// A short title naming what was checked: `budget: energy.total_j`.
    var title: String {
        let label =
            switch kind {
            case .budget: "budget"
            case .findings: "findings budget"
            case .regression: status == .inconclusive ? "possible regression" : "regression"
            case .newFinding: "new finding"
            case .resolvedFinding: "resolved finding"
            case .baseline: "baseline"
            }
        return "\(label): \(subject)"
    }

    /// `status`, `expected`, `found` and `note`, one per line, for the body of a test report.
    var details: String {
        var lines = ["status: \(status.rawValue)", "expected: \(expected)", "found: \(found)"]
        if let note { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }

    /// The order the outputs present statuses in: the verdict's own order.
    static let presentationOrder: [Status] = [.fail, .warn, .inconclusive, .improvement, .pass, .skipped]
}
