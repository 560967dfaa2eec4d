import DrainTrace

/// The inner loop of `Aggregate.totals` and `Aggregate.binnedTotals`: adds each entry's energy
/// to its category's total over one index range.
///
/// How: eight banks of eight `Double` accumulators (one per category, the eighth unused), entry
/// `i` going to bank `i mod 8`. Consecutive entries of one category then update different
/// memory cells, so their adds overlap instead of each waiting for the previous one's store (a
/// single set of accumulators serialises on store-to-load forwarding whenever a category repeats,
/// which the dominant category does every other entry). Categories are read eight at a time as
/// one 64-bit word and split with shifts, so each entry costs one energy load, one widening,
/// one add into its bank and one store. The banks are summed with `SIMD8<Double>` at the end.
///
/// Why not lane-masked SIMD: the masked form (for each of the 7 categories, compare the widened
/// categories, `and` the energies, add into `SIMD4<Float>` lanes) needs 21 vector operations per
/// 4 entries on the baseline x86-64 target (SSE2: 4 floats per register, no masked adds), and
/// measured about half the rate of this loop on the development machine (`drain-bench aggregate`).
///
/// Accuracy: every add is in `Double`; each accumulator sums about `count / 8` entries of one
/// category, so the result differs from a sequential `Double` sum by at most
/// `count × 2⁻⁵³ × Σ|energy|` of that category — the same order as the scalar reference's own error.
enum CategoryTotalsKernel {
    /// Ranges shorter than this are summed straight into the totals: clearing and folding the
    /// banks would cost more than it saves.
    static let bankedMinimum = 64

    /// Adds `energy[i]` to `totals[category[i]]` for every `i` in `range`. `totals` holds
    /// `EnergyCategory.count` values. `CostLedger` only stores `EnergyCategory` raw values; any
    /// other byte is taken modulo 8 and dropped if that is 7, so memory stays in bounds whatever
    /// the bytes are. O(range.count).
    static func accumulate(
        energy: UnsafePointer<Float>, category: UnsafePointer<UInt8>, range: Range<Int>,
        into totals: UnsafeMutablePointer<Double>
    ) {
        guard range.count >= bankedMinimum else {
            for index in range {
                let slot = Int(category[index] & 7)
                if slot < EnergyCategory.count { totals[slot] += Double(energy[index]) }
            }
            return
        }
        withUnsafeTemporaryAllocation(of: SIMD8<Double>.self, capacity: 8) { banks in
            let bank = UnsafeMutableRawPointer(banks.baseAddress!).assumingMemoryBound(to: Double.self)
            bank.initialize(repeating: 0, count: 64)
            let categoryBytes = UnsafeRawPointer(category)
            var index = range.lowerBound
            let end = range.upperBound
            while end &- index >= 8 {
                let word = UInt64(littleEndian: categoryBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let entry = energy + index
                bank[Int(truncatingIfNeeded: word & 7)] += Double(entry[0])
                bank[8 | Int(truncatingIfNeeded: word &>> 8 & 7)] += Double(entry[1])
                bank[16 | Int(truncatingIfNeeded: word &>> 16 & 7)] += Double(entry[2])
                bank[24 | Int(truncatingIfNeeded: word &>> 24 & 7)] += Double(entry[3])
                bank[32 | Int(truncatingIfNeeded: word &>> 32 & 7)] += Double(entry[4])
                bank[40 | Int(truncatingIfNeeded: word &>> 40 & 7)] += Double(entry[5])
                bank[48 | Int(truncatingIfNeeded: word &>> 48 & 7)] += Double(entry[6])
                bank[56 | Int(truncatingIfNeeded: word &>> 56 & 7)] += Double(entry[7])
                index &+= 8
            }
            while index < end {
                bank[Int(category[index] & 7)] += Double(energy[index])
                index &+= 1
            }
            var sum = banks[0]
            for row in 1..<8 { sum += banks[row] }
            for category in 0..<EnergyCategory.count { totals[category] += sum[category] }
        }
    }
}
