import DrainTrace

/// The plain reference implementation of the aggregation core: one loop per reduction, one
/// `Double` accumulator per output, no SIMD. Tests compare `Aggregate` against it; the
/// benchmarks measure both.
public enum ScalarAggregate {
    /// Joules per category, indexed by `EnergyCategory.rawValue`. O(n).
    public static func totals(_ ledger: CostLedger) -> [Double] {
        var totals = [Double](repeating: 0, count: EnergyCategory.count)
        for index in 0..<ledger.count {
            totals[Int(ledger.category[index])] += Double(ledger.energy[index])
        }
        return totals
    }

    /// Joules per bin and category, row-major: `result[bin * EnergyCategory.count + category]`.
    /// Bin `b` covers `[origin + b × width, origin + (b + 1) × width)`; entries outside
    /// `binCount` bins are ignored. O(n).
    public static func binnedTotals(_ ledger: CostLedger, origin: Nanoseconds, binWidth: Nanoseconds, binCount: Int) -> [Double] {
        precondition(binWidth > 0 && binCount >= 0)
        var bins = [Double](repeating: 0, count: binCount * EnergyCategory.count)
        for index in 0..<ledger.count {
            let offset = ledger.time[index] - origin
            guard offset >= 0 else { continue }
            let bin = Int(offset / binWidth)
            guard bin < binCount else { continue }
            bins[bin * EnergyCategory.count + Int(ledger.category[index])] += Double(ledger.energy[index])
        }
        return bins
    }

    /// Joules and entry counts per key (`StringID`, `0..<keyCount`), optionally within one
    /// category. O(n).
    public static func sumsByKey(_ ledger: CostLedger, keyCount: Int, category: EnergyCategory? = nil) -> (energy: [Double], entries: [Int]) {
        var energy = [Double](repeating: 0, count: keyCount)
        var entries = [Int](repeating: 0, count: keyCount)
        for index in 0..<ledger.count {
            if let category, ledger.category[index] != category.rawValue { continue }
            let key = Int(ledger.key[index])
            guard key < keyCount else { continue }
            energy[key] += Double(ledger.energy[index])
            entries[key] += 1
        }
        return (energy, entries)
    }
}
