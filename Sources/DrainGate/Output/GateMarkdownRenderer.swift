import DrainRender

/// Renders a verdict as GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY` and pull-request
/// comments: a title with the outcome, the warnings, a table of the failing, warning,
/// inconclusive and improved checks, and the passing and skipped ones folded in `<details>`.
public struct GateMarkdownRenderer: Sendable {
    /// The rendering stays under this many bytes: GitHub refuses a larger step summary.
    public static let byteLimit = 1_048_576
    /// The longest string from the verdict shown in one place, in Unicode scalars: one huge
    /// name must not crowd out every row.
    static let stringLimit = 1_000
    /// The most warnings listed.
    static let warningLimit = 50
    /// Bytes kept for the text around the rows: table headers, `<details>`, the lines that
    /// say how many rows were left out.
    static let frameBytes = 2_048

    public init() {}

    /// The summary. Every string from the verdict is escaped (`Markdown.escape`), so a hostile
    /// finding key can neither break a table, start a link nor inject HTML; it is also cut to
    /// `stringLimit` scalars. When the whole would reach `byteLimit`, rows are left out, the
    /// folded ones from the end first, then those of the main table from the end, and a line
    /// says how many. Deterministic; O(size of the verdict).
    public func render(_ verdict: GateVerdict) -> String {
        let head = self.head(verdict)
        let checks = verdict.presentedChecks
        let mainRows = checks.filter { !Self.folded($0.status) }.map(row)
        let foldedChecks = checks.filter { Self.folded($0.status) }
        let foldedRows = foldedChecks.map(row)

        var room = Self.byteLimit - head.utf8.count - Self.frameBytes
        let keptMain = Self.fitting(mainRows, in: room)
        room -= mainRows.prefix(keptMain).reduce(0) { $0 + $1.utf8.count }
        let keptFolded = keptMain == mainRows.count ? Self.fitting(foldedRows, in: room) : 0

        var text = head
        if mainRows.isEmpty {
            text += "No failing, warning, inconclusive or improved checks.\n\n"
        } else {
            text += Self.tableHeader + mainRows.prefix(keptMain).joined() + "\n"
            text += Self.leftOut(mainRows.count - keptMain)
        }
        if !foldedRows.isEmpty {
            let passing = foldedChecks.count(where: { $0.status == .pass })
            let skipped = foldedRows.count - passing
            var summary = "\(passing) passing check\(passing == 1 ? "" : "s")"
            if skipped > 0 { summary += ", \(skipped) skipped" }
            text += "<details><summary>\(summary)</summary>\n\n"
            if keptFolded > 0 { text += Self.tableHeader + foldedRows.prefix(keptFolded).joined() + "\n" }
            text += Self.leftOut(foldedRows.count - keptFolded)
            text += "</details>\n"
        }
        return text
    }

    /// The title, the line of context and the warnings.
    private func head(_ verdict: GateVerdict) -> String {
        let outcome = verdict.outcome == .pass ? "✅ drain gate: PASS" : "❌ drain gate: FAIL"
        var text = "## \(outcome)" + (verdict.scenario.map { " · " + escape($0) } ?? "") + "\n\n"
        var context = ["Model " + escape(verdict.model), verdict.runCounts]
        if let revision = verdict.baselineRevision { context.append(escape(revision)) }
        context.append(verdict.tally)
        text += context.joined(separator: " · ") + "\n\n"
        if let source = verdict.baselineSource { text += escape(source) + "\n\n" }
        if !verdict.warnings.isEmpty {
            text += "**Warnings**\n\n"
            for warning in verdict.warnings.prefix(Self.warningLimit) { text += "- " + escape(warning) + "\n" }
            if verdict.warnings.count > Self.warningLimit {
                text += "- …and \(verdict.warnings.count - Self.warningLimit) more\n"
            }
            text += "\n"
        }
        return text
    }

    private func row(_ check: GateCheck) -> String {
        let found = escape(check.found) + (check.note.map { "<br>note: " + escape($0) } ?? "")
        return "| \(Self.statusLabels[check.status]!) | \(escape(check.id)) | \(escape(check.expected)) | \(found) |\n"
    }

    /// `text` cut to `stringLimit` scalars and escaped for Markdown.
    private func escape(_ text: String) -> String { Markdown.escape(text.cut(toScalars: Self.stringLimit)) }

    static let tableHeader = "| Status | Check | Expected | Found |\n|---|---|---|---|\n"

    static let statusLabels: [GateCheck.Status: String] = [
        .fail: "❌ fail", .warn: "⚠️ warn", .inconclusive: "❔ inconclusive", .improvement: "✨ improvement", .pass: "✅ pass",
        .skipped: "⏭️ skipped",
    ]

    /// Passing and skipped checks go in the folded part.
    static func folded(_ status: GateCheck.Status) -> Bool { status == .pass || status == .skipped }

    /// How many of `rows`, from the first, fit in `room` bytes.
    static func fitting(_ rows: [String], in room: Int) -> Int {
        var used = 0
        for (index, row) in rows.enumerated() {
            used += row.utf8.count
            if used > room { return index }
        }
        return rows.count
    }

    /// The line saying `count` rows were left out, or nothing.
    static func leftOut(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return "*\(count) more row\(count == 1 ? "" : "s") left out to keep this summary under 1 MiB: the JSON verdict (`--json`) has every check.*\n\n"
    }
}
