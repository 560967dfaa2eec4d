import DrainReport
import DrainTrace

/// Orderings and counts every renderer presents the same way.
extension Report {
    /// Energy per category: the `EnergyCategory` order first, then any other key of
    /// `energy.by_category` by name, so every renderer lists categories alike and
    /// deterministically (dictionary order is not).
    var categoryEnergy: [(name: String, joules: Double)] {
        let known = EnergyCategory.allCases.map(\.name)
        let extra = energy.byCategory.keys.filter { !known.contains($0) }.sorted()
        return (known + extra).map { ($0, energy.byCategory[$0] ?? 0) }
    }

    /// Guidance areas in catalogue order, then any other key of `scores.areas` by name.
    var areaNames: [String] {
        let known = GuidanceArea.allCases.map(\.rawValue)
        return known + scores.areas.keys.filter { !known.contains($0) }.sorted()
    }

    /// Findings with errors first, then warnings, then infos; the report's order is kept
    /// within a severity.
    var findingsBySeverity: [Finding] {
        let indexed = findings.enumerated().sorted { lhs, rhs in
            lhs.element.severity != rhs.element.severity
                ? lhs.element.severity > rhs.element.severity : lhs.offset < rhs.offset
        }
        return indexed.map(\.element)
    }

    /// How many findings have `severity`.
    func findingCount(_ severity: Severity) -> Int {
        findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
    }

    /// `1 error`, `2 warnings`, `3 info`.
    func findingCountLabel(_ severity: Severity) -> String {
        let count = findingCount(severity)
        return "\(count) \(severity.rawValue)\(count == 1 || severity == .info ? "" : "s")"
    }

    /// Energy per bin summed over the categories, joules.
    var timelineTotals: [Double] {
        timeline.energyJ.map { $0.reduce(0, +) }
    }
}

extension ReportInput {
    /// Diagnostic occurrences, summed over the grouped entries.
    var diagnosticOccurrences: Int {
        diagnostics.reduce(0) { $0 + $1.count }
    }
}

/// How every renderer states a run's time gaps (`docs/reports.md`, *Time gaps and active duration*).
extension Report {
    /// The run's length for people: its duration, and for a run with time gaps its active
    /// duration beside the wall span (`35064 h 00 min wall span, 3 min 00 s active`).
    var spanText: String {
        guard let gaps = timeGaps, !gaps.gaps.isEmpty else { return DisplayNumber.duration(durationS) }
        return "\(DisplayNumber.duration(durationS)) wall span, \(DisplayNumber.duration(activeDurationS)) active"
    }

    /// One sentence per time gap, and one for the backward time jumps; empty without either.
    /// At most `limit` gaps are named, then how many more there were.
    func timeGapSentences(limit: Int = 10) -> [String] {
        guard let summary = timeGaps else { return [] }
        var sentences = summary.gaps.prefix(limit).map { gap in
            "No events for \(DisplayNumber.duration(gap.lengthS)) from \(DisplayNumber.time(gap.startS)) to "
                + "\(DisplayNumber.time(gap.endS)): left out of the active duration"
        }
        if summary.gaps.count > limit { sentences.append("\(summary.gaps.count - limit) more time gaps") }
        if summary.backwardJumps > 0 {
            sentences.append(
                "\(summary.backwardJumps) backward time jump\(summary.backwardJumps == 1 ? "" : "s") in the inputs, the largest "
                    + DisplayNumber.duration(summary.largestBackwardJumpS ?? 0) + " (sorted by time)")
        }
        return sentences
    }
}
