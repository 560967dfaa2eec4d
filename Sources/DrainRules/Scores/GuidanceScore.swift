import DrainReport

/// The guidance scores of `GUIDANCE.md` "Scores": 0–100 per area and overall.
///
/// In each area every applicable rule weighs 1 and scores pass 1, info 1 (an observation
/// has no score impact), warning 0.5, error 0; rules that are not applicable or disabled do
/// not count. An area's score is 100 × the mean over its applicable rules; the overall
/// score is the mean of the areas that have one. O(rules).
public enum GuidanceScore {
    /// Overall score (`nil` when no rule was applicable) and score per area name (only
    /// areas with at least one applicable rule).
    public static func scores(_ results: [RuleResult]) -> (overall: Double?, areas: [String: Double]) {
        var sums: [GuidanceArea: (points: Double, rules: Int)] = [:]
        for result in results {
            guard let points = points(result.status) else { continue }
            sums[result.area, default: (0, 0)].points += points
            sums[result.area, default: (0, 0)].rules += 1
        }
        var areas: [String: Double] = [:]
        for area in GuidanceArea.allCases {
            guard let sum = sums[area] else { continue }
            areas[area.rawValue] = 100 * sum.points / Double(sum.rules)
        }
        guard !areas.isEmpty else { return (nil, [:]) }
        let overall = GuidanceArea.allCases.compactMap { areas[$0.rawValue] }.reduce(0, +) / Double(areas.count)
        return (overall, areas)
    }

    /// The points of a status, or `nil` when the rule does not count.
    static func points(_ status: RuleResult.Status) -> Double? {
        switch status {
        case .pass, .info: 1
        case .warning: 0.5
        case .error: 0
        case .notApplicable, .disabled: nil
        }
    }
}
