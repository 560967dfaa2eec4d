import Foundation

/// The Mann-Whitney U test (Wilcoxon rank-sum) of two sets of runs: how likely a difference
/// in ranks at least this large is when both come from one distribution.
public enum MannWhitney {
    /// The two-sided p-value. Exact (by counting every split of the ranks) when there are no
    /// ties and at most 20 runs in all; otherwise the normal approximation with the tie
    /// correction and a continuity correction. O(n log n), or O(n₁·n₂·(n₁+n₂)) when exact.
    public static func pValue(_ first: [Double], _ second: [Double]) -> Double {
        let n1 = first.count, n2 = second.count
        guard n1 > 0, n2 > 0 else { return 1 }
        let pooled = (first.map { ($0, 0) } + second.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end + 1 < pooled.count, pooled[end + 1].0 == pooled[start].0 { end += 1 }
            let rank = Double(start + end + 2) / 2
            for index in start...end { ranks[index] = rank }
            let tied = Double(end - start + 1)
            tieTerm += tied * tied * tied - tied
            start = end + 1
        }
        var rankSum = 0.0
        for (index, member) in pooled.enumerated() where member.1 == 0 { rankSum += ranks[index] }
        let u = rankSum - Double(n1 * (n1 + 1)) / 2
        if tieTerm == 0, n1 + n2 <= 20 { return exact(u: u, n1: n1, n2: n2) }
        let mean = Double(n1 * n2) / 2
        let n = Double(n1 + n2)
        let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return 1 }
        let z = max(0, abs(u - mean) - 0.5) / variance.squareRoot()
        return min(1, erfc(z / 2.0.squareRoot()))
    }

    /// P(|U − mean| ≥ |u − mean|) under the null hypothesis, from the count of rank splits
    /// giving each U (the recurrence c(n₁, n₂, u) = c(n₁−1, n₂, u−n₂) + c(n₁, n₂−1, u)).
    private static func exact(u: Double, n1: Int, n2: Int) -> Double {
        let maxU = n1 * n2
        // counts[i][j][k]: splits of i first-set and j second-set values with U = k.
        var counts = [[[Double]]](repeating: [[Double]](repeating: [], count: n2 + 1), count: n1 + 1)
        for i in 0...n1 {
            for j in 0...n2 {
                var row = [Double](repeating: 0, count: i * j + 1)
                if i == 0 || j == 0 {
                    row[0] = 1
                } else {
                    for k in 0...(i * j) {
                        // The largest value is the first set's (beating all j others) or the second's.
                        let firstLargest = k >= j ? counts[i - 1][j][k - j] : 0
                        let secondLargest = k <= i * (j - 1) ? counts[i][j - 1][k] : 0
                        row[k] = firstLargest + secondLargest
                    }
                }
                counts[i][j] = row
            }
        }
        let distribution = counts[n1][n2]
        let total = distribution.reduce(0, +)
        let mean = Double(maxU) / 2
        let distance = abs(u - mean)
        var tail = 0.0
        for (k, count) in distribution.enumerated() where abs(Double(k) - mean) >= distance - 1e-9 { tail += count }
        return min(1, tail / total)
    }
}
