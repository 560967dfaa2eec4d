import DrainReport

extension TimeRange {
    /// The most time ranges one finding keeps. A rule that flags a pattern thousands of times
    /// (every uncompressed answer of an API, every chatty connection of a host) still makes a
    /// report of bounded size.
    public static let findingLimit = 50

    /// `ranges` as they are when there are at most `limit`; else sorted by start and joined
    /// across the shortest gaps between them until `limit` remain, so that the result still
    /// covers every moment `ranges` covered (and the gaps that were bridged). O(n log n).
    public static func limited(_ ranges: [TimeRange], to limit: Int = findingLimit) -> [TimeRange] {
        guard ranges.count > max(1, limit) else { return ranges }
        let sorted = ranges.sorted { ($0.startS, $0.endS) < ($1.startS, $1.endS) }
        // The gap before each range but the first, from the latest end so far.
        var gaps: [(length: Double, index: Int)] = []
        gaps.reserveCapacity(sorted.count - 1)
        var reach = sorted[0].endS
        for index in 1..<sorted.count {
            gaps.append((sorted[index].startS - reach, index))
            reach = max(reach, sorted[index].endS)
        }
        // The limit − 1 longest gaps stay; ties keep the earlier gap.
        let kept = gaps.sorted { $0.length != $1.length ? $0.length > $1.length : $0.index < $1.index }
            .prefix(max(1, limit) - 1).map(\.index)
        var cuts = Set(kept)
        cuts.insert(sorted.count)
        var result: [TimeRange] = []
        result.reserveCapacity(limit)
        var current = sorted[0]
        for index in 1...sorted.count {
            if cuts.contains(index) {
                result.append(current)
                if index < sorted.count { current = sorted[index] }
            } else {
                current.endS = max(current.endS, sorted[index].endS)
            }
        }
        return result
    }
}
