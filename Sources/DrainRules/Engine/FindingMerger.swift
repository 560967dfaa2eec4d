import DrainReport

/// Merges a rule's findings by key and title as the rule makes them, so that a rule flagging
/// one problem thousands of times holds one finding per group instead of all of them.
///
/// The result is what `Finding.mergedByKey` gives for the same findings sorted by place, then
/// message: groups in the order of their first finding; each group as its most severe finding
/// (the first of equals) with an `occurrences` count, the highest severity, the energy of all
/// (summed in the order they were added) and the time ranges of all, sorted. A group of one is
/// its finding as it was. Holds per group its leading finding, its first finding's place and
/// message, and the time ranges of all (16 bytes an occurrence).
public struct FindingMerger<Place: Comparable> {
    private struct GroupKey: Hashable {
        var key: String
        var title: String
    }

    private struct Group {
        var lead: Finding
        var leadPlace: Place
        /// The group's first finding by place and message: it orders the groups, and its
        /// severity words the merged message.
        var firstPlace: Place
        var firstMessage: String
        var firstSeverity: Severity
        var count = 1
        var energy: Double?
        var ranges: [TimeRange]

        mutating func add(_ finding: Finding, at place: Place) {
            count += 1
            if let joules = finding.energyJ { energy = (energy ?? 0) + joules }
            ranges += finding.timeRanges
            if FindingMerger.precedes((place, finding.message), (firstPlace, firstMessage)) {
                firstPlace = place
                firstMessage = finding.message
                firstSeverity = finding.severity
            }
            let leads = finding.severity != lead.severity
                ? finding.severity > lead.severity
                : FindingMerger.precedes((place, finding.message), (leadPlace, lead.message))
            if leads {
                lead = finding
                leadPlace = place
            }
        }

        var merged: Finding {
            guard count > 1 else { return lead }
            var finding = lead
            finding.energyJ = energy
            finding.timeRanges = ranges.sorted { ($0.startS, $0.endS) < ($1.startS, $1.endS) }
            finding.evidence.append(Evidence("occurrences", Double(count), unit: "findings"))
            finding.message += " Seen \(count) times in this run: these figures are "
                + (finding.severity > firstSeverity ? "the most severe occurrence's" : "the first occurrence's")
                + "; the energy and time ranges cover every occurrence."
            return finding
        }
    }

    private var groups: [Group] = []
    private var index: [GroupKey: Int] = [:]

    public init() {}

    /// Adds `finding`, placed at `place` among the rule's findings (ties are broken by message).
    /// Amortised O(1) plus its time ranges.
    public mutating func add(_ finding: Finding, at place: Place) {
        let key = GroupKey(key: finding.key, title: finding.title)
        guard let slot = index[key] else {
            index[key] = groups.count
            groups.append(Group(
                lead: finding, leadPlace: place, firstPlace: place, firstMessage: finding.message,
                firstSeverity: finding.severity, energy: finding.energyJ, ranges: finding.timeRanges))
            return
        }
        groups[slot].add(finding, at: place)
    }

    /// The merged findings, groups ordered by their first finding. O(g log g) for g groups, plus
    /// sorting each group's time ranges.
    public func findings() -> [Finding] {
        groups.sorted { Self.precedes(($0.firstPlace, $0.firstMessage), ($1.firstPlace, $1.firstMessage)) }
            .map(\.merged)
    }

    static func precedes(_ lhs: (Place, String), _ rhs: (Place, String)) -> Bool {
        lhs.0 != rhs.0 ? lhs.0 < rhs.0 : lhs.1 < rhs.1
    }
}
