import Foundation
import DrainRender

/// A comparison as a terminal table: the runs, every figure with its change against the
/// reference (green when better, red when worse, only on a terminal), the largest keyed
/// changes and the new and resolved findings. Untrusted text is sanitised.
public struct CompareTerminalRenderer: Sendable {
    public var color: Bool

    public init(color: Bool) {
        self.color = color
    }

    public func render(_ comparison: Comparison) -> String {
        var lines: [String] = []
        func clean(_ text: String) -> String { TerminalText.sanitize(text) }
        lines.append(TerminalText.style("Drain comparison", "1", enabled: color))
        for (index, run) in comparison.runs.enumerated() {
            lines.append(
                "  \(index == comparison.reference ? "reference" : "run \(index + 1)  "): \(clean(run.label)) · \(clean(run.model)) · "
                    + DisplayNumber.duration(run.activeDurationS))
        }
        for note in comparison.notes { lines.append(TerminalText.style("  note: " + clean(note), "33", enabled: color)) }
        lines.append("")
        let rows = comparison.summary + comparison.categories
        let nameWidth = min(40, rows.map(\.name.count).max() ?? 10)
        for row in rows {
            var line = clean(row.name).padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            for value in row.values { line += "  " + CompareNumber.optional(value, unit: row.unit).leftPadded(to: 12) }
            for change in row.changes.dropFirst() {
                let text = CompareNumber.change(change, unit: row.unit).leftPadded(to: 20)
                let worse = (change?.delta ?? 0) > 0
                line += "  " + (change == nil || change?.delta == 0 ? text : TerminalText.style(text, worse ? "31" : "32", enabled: color))
            }
            lines.append(line)
        }
        let changed = (comparison.endpoints + comparison.files + comparison.threads)
            .filter { $0.status.contains { $0 == .added || $0 == .removed || $0 == .changed } }
            .prefix(8)
        if !changed.isEmpty {
            lines += ["", "Largest changes"]
            for row in changed {
                let cells = row.changes.indices.dropFirst().map { "\(row.status[$0].rawValue) \(CompareNumber.change(row.changes[$0], unit: "J"))" }
                lines.append("  " + clean(row.key) + ": " + cells.joined(separator: "; "))
            }
        }
        let notable = comparison.findings.filter { $0.status.contains { $0 == .new || $0 == .resolved || $0 == .worse || $0 == .better } }
        if !notable.isEmpty {
            lines += ["", "Findings"]
            for row in notable {
                lines.append("  " + row.status.dropFirst().map(\.rawValue).joined(separator: "/") + "  " + clean(row.key))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The text right-aligned in `width` columns (longer text is kept whole).
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
