import DrainTrace

/// The aggregation core: reductions over a `CostLedger`'s columns and over plain numeric
/// columns, with the same results as `ScalarAggregate` (up to the rounding stated on each
/// function) at several times its speed.
///
/// Every function reads the columns through unsafe buffer pointers, with no bounds checks and
/// no allocation inside the per-entry loops; results (and the working copy `percentiles`
/// sorts in) are allocated once per call.
public enum Aggregate {
    /// Joules per category, indexed by `EnergyCategory.rawValue`: `ScalarAggregate.totals`
    /// within the kernel's rounding bound, about 1.9 × 10⁻⁶ of each category's total (see
    /// `CategoryTotalsKernel`). O(n).
    public static func totals(_ ledger: CostLedger) -> [Double] {
        var totals = [Double](repeating: 0, count: EnergyCategory.count)
        totals.withUnsafeMutableBufferPointer { addTotals(ledger, into: $0.baseAddress!) }
        return totals
    }

    /// Whether `totals` and `binnedTotals` run their banked loop in AVX2 on this processor
    /// (`CategoryTotalsKernel`); the sums are the same either way, bit for bit.
    public static var totalsUseAVX2: Bool { CategoryTotalsKernel.usesAVX2 }

    /// `totals`, added to the `EnergyCategory.count` values at `totals`.
    public static func addTotals(_ ledger: CostLedger, into totals: UnsafeMutablePointer<Double>) {
        ledger.energy.withUnsafeBufferPointer { energy in
            ledger.category.withUnsafeBufferPointer { category in
                guard let energy = energy.baseAddress, let category = category.baseAddress else { return }
                CategoryTotalsKernel.accumulate(energy: energy, category: category, range: 0..<ledger.count, into: totals)
            }
        }
    }
}
