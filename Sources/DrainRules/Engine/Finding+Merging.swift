import DrainReport

extension Finding {
    /// One finding per key and title, in the order they first appear: findings of a rule that
    /// share both are the same problem seen more than once (a background task overstaying every
    /// time the app is backgrounded), and a run of days would otherwise list it thousands of
    /// times. (One key with two titles is two kinds of problem, such as a MetricKit exception
    /// beside the events' own finding, and stays two findings.) A finding alone in its group is
    /// returned as it is. O(n) in findings and their ranges, plus O(g log g) for g groups.
    public static func mergedByKey(_ findings: [Finding]) -> [Finding] {
        var merger = FindingMerger<Int>()
        for (index, finding) in findings.enumerated() { merger.add(finding, at: index) }
        return merger.findings()
    }
}
