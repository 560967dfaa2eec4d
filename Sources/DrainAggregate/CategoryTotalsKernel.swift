import CSIMDKernels
import DrainTrace

/// The inner loop of `Aggregate.totals` and `Aggregate.binnedTotals`: adds each entry's energy
/// to its category's total over one index range.
///
/// How: eight banks of eight `Float` accumulators (one per category, the eighth unused), entry
/// `i` going to bank `i mod 8`. Consecutive entries of one category then update different
/// memory cells, so their adds overlap instead of each waiting for the previous one's store (a
/// single set of accumulators serialises on store-to-load forwarding whenever a category repeats,
/// which the dominant category does every other entry). Categories are read eight at a time as
/// one 64-bit word and split with shifts, so an entry costs one energy load, one add into its
/// bank and one store. Every `blockLength` entries the banks, as eight `SIMD8<Float>` rows, are
/// widened to `SIMD8<Double>` and added to the running totals, then cleared.
///
/// Why not lane-masked SIMD: the masked form (for each of the 7 categories, compare the
/// widened categories, `and` the energies, add into `SIMD4<Float>` lanes) needs 21 vector
/// operations per 4 entries on the baseline x86-64 target (SSE2: 4 floats per register, no
/// masked adds). On the development machine it ran at 0.65–1.0 G entries/s where this loop
/// ran at 1.0–1.4 G (same runs, CPU time), and keeping the banks in `Double` instead of `Float`
/// cost 10–25 %. This loop's rate is the same for constant, cyclic and random categories, so
/// it is bound by instruction issue, not by chains of adds to one accumulator.
///
/// Accuracy: within a block each accumulator adds at most `blockLength / 8` = 32 `Float`
/// energies in order, so its error is at most 31 × 2⁻²⁴ times the sum of their magnitudes
/// (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §4.2); everything after
/// is exact widening and `Double` adds. A category total of n entries is therefore within
/// (31 × 2⁻²⁴ + n × 2⁻⁵³) × Σ|energy| of the exact sum: 1.86 × 10⁻⁶ × Σ|energy| up to 10⁸ entries.
///
/// On a processor with AVX2 the banked loop runs as `drain_category_banks_avx2` (C, in
/// `CSIMDKernels`, compiled for AVX2 on its own while the rest of the program keeps the baseline
/// target): eight entries at a time, each category's eight banks in one register, each entry's
/// energy masked into its category's register — 7 compares, masks and adds per eight entries
/// instead of eight loads, adds and stores to memory. Every bank sees the same adds in the same
/// order, so the totals are the portable loop's bit for bit, on any processor.
enum CategoryTotalsKernel {
    /// Entries per block between two folds of the `Float` banks into `Double`: bounds how many
    /// `Float` adds any accumulator makes in a row (see the accuracy note).
    static let blockLength = 256

    /// Ranges shorter than this are summed straight into the totals in `Double`: clearing and
    /// folding the banks would cost more than it saves.
    static let bankedMinimum = 64

    /// Adds `energy[i]` to `totals[category[i]]` for every `i` in `range`. `totals` holds
    /// `EnergyCategory.count` values. `CostLedger` only stores `EnergyCategory` raw values; any
    /// other byte is taken modulo 8 and dropped if that is 7, so memory stays in bounds whatever
    /// the bytes are. O(range.count).
    static func accumulate(
        energy: UnsafePointer<Float>, category: UnsafePointer<UInt8>, range: Range<Int>,
        into totals: UnsafeMutablePointer<Double>
    ) {
        accumulate(energy: energy, category: category, range: range, into: totals, vector: usesAVX2)
    }

    /// Whether the banked loop runs in AVX2 (`drain_category_banks_avx2`) on this processor.
    static let usesAVX2 = drain_cpu_has_avx2() != 0 && EnergyCategory.count == Int(DRAIN_SUMMED_CATEGORIES)

    /// `accumulate(energy:category:range:into:)`, with the banked loop in AVX2 when `vector`
    /// (which needs `usesAVX2`), else in portable Swift.
    static func accumulate(
        energy: UnsafePointer<Float>, category: UnsafePointer<UInt8>, range: Range<Int>,
        into totals: UnsafeMutablePointer<Double>, vector: Bool
    ) {
        var index = range.lowerBound
        let end = range.upperBound
        if range.count >= bankedMinimum, vector {
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 8) { sums in
                sums.initialize(repeating: 0)
                index = drain_category_banks_avx2(energy, category, index, end, blockLength, sums.baseAddress!)
                for category in 0..<EnergyCategory.count { totals[category] += sums[category] }
            }
        } else if range.count >= bankedMinimum {
            withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 8) { rows in
                let bank = UnsafeMutableRawPointer(rows.baseAddress!).assumingMemoryBound(to: Float.self)
                let categoryBytes = UnsafeRawPointer(category)
                var sum = SIMD8<Double>()
                while end &- index >= 8 {
                    for row in 0..<8 { rows[row] = .zero }
                    let blockEnd = index &+ min(blockLength, (end &- index) & ~7)
                    repeat {
                        let word = UInt64(littleEndian: categoryBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        let entry = energy + index
                        bank[Int(truncatingIfNeeded: word & 7)] += entry[0]
                        bank[8 | Int(truncatingIfNeeded: word &>> 8 & 7)] += entry[1]
                        bank[16 | Int(truncatingIfNeeded: word &>> 16 & 7)] += entry[2]
                        bank[24 | Int(truncatingIfNeeded: word &>> 24 & 7)] += entry[3]
                        bank[32 | Int(truncatingIfNeeded: word &>> 32 & 7)] += entry[4]
                        bank[40 | Int(truncatingIfNeeded: word &>> 40 & 7)] += entry[5]
                        bank[48 | Int(truncatingIfNeeded: word &>> 48 & 7)] += entry[6]
                        bank[56 | Int(truncatingIfNeeded: word &>> 56 & 7)] += entry[7]
                        index &+= 8
                    } while index < blockEnd
                    for row in 0..<8 { sum += SIMD8<Double>(rows[row]) }
                }
                for category in 0..<EnergyCategory.count { totals[category] += sum[category] }
            }
        }
        while index < end {
            let slot = Int(category[index] & 7)
            if slot < EnergyCategory.count { totals[slot] += Double(energy[index]) }
            index &+= 1
        }
    }
}
