import DrainRender

/// Renders a verdict for a terminal: a header, the verdict's warnings, one line per check that
/// did not pass (what was expected and what was found, its note indented below), failures
/// first, then one compact line naming the passing checks.
public struct GateTerminalRenderer: Sendable {
    /// Whether ANSI colours are used.
    public var color: Bool

    public init(color: Bool) {
        self.color = color
    }

    /// The verdict as lines of text, each ending in a newline. ANSI styles appear only when
    /// `color` is true; every string from the verdict is sanitised (`TerminalText.sanitize`)
    /// so that none can carry its own escape sequence or line break. Deterministic; O(checks).
    public func render(_ verdict: GateVerdict) -> String {
        var lines: [String] = []
        let outcome = verdict.outcome == .pass ? style("PASS", "1;32") : style("FAIL", "1;31")
        let scenario = verdict.scenario.map { ": " + sanitize($0) } ?? ""
        lines.append(
            style("drain gate\(scenario) · model \(sanitize(verdict.model)) · \(verdict.runCounts)", "1") + " · " + outcome)
        var context = [verdict.tally]
        if let revision = verdict.baselineRevision { context.append(sanitize(revision)) }
        lines.append(style(context.joined(separator: " · "), "2"))
        if let source = verdict.baselineSource { lines.append(style(sanitize(source), "2")) }
        for warning in verdict.warnings {
            lines.append(style("warning:", "33") + " " + sanitize(warning))
        }
        for check in verdict.presentedChecks where check.status != .pass {
            lines.append(mark(check.status) + " " + sanitize(check.statement))
            if let note = check.note { lines.append("    " + style(sanitize(note), "2")) }
        }
        let passed = verdict.checks(.pass)
        if !passed.isEmpty {
            var ids = passed.prefix(Self.passesListed).map { sanitize($0.id) }.joined(separator: ", ")
            if passed.count > Self.passesListed { ids += " and \(passed.count - Self.passesListed) more" }
            lines.append(mark(.pass) + " " + style("\(passed.count) passed: \(ids)", "2"))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The most passing checks named: they are listed by id on one line.
    static let passesListed = 20

    /// The mark of `status`, in its colour.
    private func mark(_ status: GateCheck.Status) -> String {
        switch status {
        case .fail: style("✗", "31")
        case .warn: style("!", "33")
        case .inconclusive: style("?", "35")
        case .improvement: style("★", "32")
        case .pass: style("✓", "32")
        case .skipped: style("–", "2")
        }
    }

    private func sanitize(_ text: String) -> String { TerminalText.sanitize(text) }

    private func style(_ text: String, _ code: String) -> String { TerminalText.style(text, code, enabled: color) }
}
