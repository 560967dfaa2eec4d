import DrainReport

extension Finding {
    /// One finding per key and title, in the order they first appear: findings of a rule that
    /// share both are the same problem seen more than once (a background task overstaying every
    /// time the app is backgrounded), and a run of days would otherwise list it thousands of
    /// times. (One key with two titles is two kinds of problem, such as a MetricKit exception
    /// beside the events' own finding, and stays two findings.) A finding alone in its group is
    /// returned as it is. O(n) in findings and their ranges.
    public static func mergedByKey(_ findings: [Finding]) -> [Finding] {
        struct Group: Hashable {
            var key: String
            var title: String
        }
        var order: [Group] = []
        var groups: [Group: [Finding]] = [:]
        for finding in findings {
            let group = Group(key: finding.key, title: finding.title)
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(finding)
        }
        return order.map { key in
            let group = groups[key] ?? []
            return group.count == 1 ? group[0] : merged(group)
        }
    }

    /// The occurrences of one problem as one finding: the message and evidence of the most
    /// severe occurrence (the earliest given of equals) with an `occurrences` count, the
    /// highest severity, the energy of all (when any has one) and the time ranges of all.
    private static func merged(_ group: [Finding]) -> Finding {
        var lead = group[0]
        for finding in group.dropFirst() where finding.severity > lead.severity { lead = finding }
        let energies = group.compactMap(\.energyJ)
        lead.energyJ = energies.isEmpty ? nil : energies.reduce(0, +)
        lead.timeRanges = group.flatMap(\.timeRanges).sorted { ($0.startS, $0.endS) < ($1.startS, $1.endS) }
        lead.evidence.append(Evidence("occurrences", Double(group.count), unit: "findings"))
        lead.message += " Seen \(group.count) times in this run: these figures are "
            + (lead.severity > group[0].severity ? "the most severe occurrence's" : "the first occurrence's")
            + "; the energy and time ranges cover every occurrence."
        return lead
    }
}
