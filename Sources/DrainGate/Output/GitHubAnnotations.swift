import DrainRender

/// The GitHub Actions workflow commands that annotate a run with a verdict's worst checks:
/// at most `limit` `::error` lines (from `fail` checks) and at most `limit` `::warning` lines
/// (the verdict's own warnings — a baseline from another machine, too few runs — first, then
/// `warn` and `inconclusive` checks), each kind ranked by energy at stake; then, when any
/// were left out, one `::notice` saying how many more the step summary lists.
public struct GitHubAnnotations: Sendable {
    /// The most lines of each kind: GitHub shows only ten annotations of a kind per step.
    public static let limit = 10
    /// The longest title and message, in Unicode scalars, before escaping.
    static let titleLimit = 200
    static let messageLimit = 4_000

    public init() {}

    /// The commands, one per element, without line ends. Values are escaped as the Actions
    /// runner expects (`%25`, `%0D`, `%0A`, and in properties `%3A`, `%2C`), and stray
    /// controls (ESC among them) become U+FFFD, so no string from the verdict can end a
    /// command, start another or colour the log. Deterministic; O(checks log checks).
    public func lines(_ verdict: GateVerdict) -> [String] {
        let errors = Self.ranked(verdict.checks.filter { $0.status == .fail })
        let general = verdict.warnings.map {
            "::warning title=drain gate::" + Self.escape($0.cut(toScalars: Self.messageLimit), property: false)
        }
        let warnings = general + Self.ranked(verdict.checks.filter { $0.status == .warn || $0.status == .inconclusive }).map { command("warning", $0) }
        var lines = errors.prefix(Self.limit).map { command("error", $0) }
        lines += warnings.prefix(Self.limit)
        let moreErrors = max(0, errors.count - Self.limit), moreWarnings = max(0, warnings.count - Self.limit)
        if moreErrors + moreWarnings > 0 {
            var more: [String] = []
            if moreErrors > 0 { more.append("\(moreErrors) more failing check\(moreErrors == 1 ? "" : "s")") }
            if moreWarnings > 0 { more.append("\(moreWarnings) more warning\(moreWarnings == 1 ? "" : "s")") }
            let verb = moreErrors + moreWarnings == 1 ? "is" : "are"
            lines.append("::notice title=drain gate::\(more.joined(separator: " and ")) \(verb) in the step summary")
        }
        return lines
    }

    /// Most energy at stake first; among equals, warnings before inconclusive results, then
    /// the verdict's order. (The verdict already orders each status so, but a warning list
    /// mixes two statuses.)
    static func ranked(_ checks: [GateCheck]) -> [GateCheck] {
        checks.enumerated().sorted { lhs, rhs in
            if lhs.element.energyImpactJ != rhs.element.energyImpactJ { return lhs.element.energyImpactJ > rhs.element.energyImpactJ }
            if lhs.element.status != rhs.element.status { return lhs.element.status == .warn }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    private func command(_ name: String, _ check: GateCheck) -> String {
        let message = check.statement + (check.note.map { "\n" + $0 } ?? "")
        return "::\(name) title=\(Self.escape(check.title.cut(toScalars: Self.titleLimit), property: true))::"
            + Self.escape(message.cut(toScalars: Self.messageLimit), property: false)
    }

    /// `text` escaped for a workflow command's message, or its property values when `property`.
    static func escape(_ text: String, property: Bool) -> String {
        String.neutralizing(text) { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            case ":" where property: "%3A"
            case "," where property: "%2C"
            default: nil
            }
        }
    }
}
