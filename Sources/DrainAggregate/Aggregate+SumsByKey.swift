import DrainTrace

extension Aggregate {
    /// Joules and entry counts per key (`StringID`, `0..<keyCount`), optionally within one
    /// category; keys at or above `keyCount` are ignored. The same as
    /// `ScalarAggregate.sumsByKey`, up to `Double` rounding of the energies (counts are exact).
    ///
    /// How: eight entries at a time, `SIMD8` lanes turn each entry into a slot — its key, or a
    /// spare slot `keyCount` when the key is out of range or the category does not match — with
    /// no branch, then each entry adds `(joules, 1)` to its slot as one `SIMD2<Double>`. Slots
    /// come in two banks (even and odd entries), so that a run of one key alternates between two
    /// memory cells instead of waiting on its own previous store. O(n + keyCount).
    ///
    /// - Precondition: `keyCount >= 0`.
    public static func sumsByKey(
        _ ledger: CostLedger, keyCount: Int, category: EnergyCategory? = nil
    ) -> (energy: [Double], entries: [Int]) {
        precondition(keyCount >= 0, "keyCount must not be negative")
        var energy = [Double](repeating: 0, count: keyCount)
        var entries = [Int](repeating: 0, count: keyCount)
        guard keyCount > 0, ledger.count > 0 else { return (energy, entries) }
        // Slot s of bank b is `slots[2 * s + b]`: (joules, entries); slot `keyCount` is the spare.
        var slots = [SIMD2<Double>](repeating: .zero, count: 2 * (keyCount + 1))
        ledger.energy.withUnsafeBufferPointer { energyColumn in
            ledger.key.withUnsafeBufferPointer { keyColumn in
                ledger.category.withUnsafeBufferPointer { categoryColumn in
                    slots.withUnsafeMutableBufferPointer { slots in
                        KeyedSumKernel(keyCount: keyCount, category: category).accumulate(
                            energy: energyColumn.baseAddress!, key: keyColumn.baseAddress!,
                            category: categoryColumn.baseAddress!, count: ledger.count, into: slots.baseAddress!)
                    }
                }
            }
        }
        for key in 0..<keyCount {
            let sum = slots[2 * key] + slots[2 * key + 1]
            energy[key] = sum[0]
            entries[key] = Int(sum[1])
        }
        return (energy, entries)
    }
}

/// The scatter loop of `Aggregate.sumsByKey`. Counts ride along as `Double`, exact below 2⁵³
/// entries per key.
private struct KeyedSumKernel {
    let spare: UInt32
    /// The category to keep, or `nil` for all.
    let category: UInt8?

    init(keyCount: Int, category: EnergyCategory?) {
        spare = UInt32(clamping: keyCount)
        self.category = category?.rawValue
    }

    func accumulate(
        energy: UnsafePointer<Float>, key: UnsafePointer<StringID>, category: UnsafePointer<UInt8>, count: Int,
        into slots: UnsafeMutablePointer<SIMD2<Double>>
    ) {
        let spareSlot = Int(spare)
        let keyBytes = UnsafeRawPointer(key)
        let categoryBytes = UnsafeRawPointer(category)
        let spares = SIMD8<UInt32>(repeating: spare)
        let wanted = SIMD8<UInt32>(repeating: UInt32(self.category ?? 0))
        var index = 0
        while count &- index >= 8 {
            let keys = keyBytes.loadUnaligned(fromByteOffset: index &* 4, as: SIMD8<UInt32>.self)
            var slot = pointwiseMin(keys, spares)
            if self.category != nil {
                let categories = SIMD8<UInt32>(
                    truncatingIfNeeded: categoryBytes.loadUnaligned(fromByteOffset: index, as: SIMD8<UInt8>.self))
                slot = spares.replacing(with: slot, where: categories .== wanted)
            }
            let entry = energy + index
            for lane in 0..<8 {
                slots[(Int(slot[lane]) &* 2) | (lane & 1)] += SIMD2(Double(entry[lane]), 1)
            }
            index &+= 8
        }
        while index < count {
            var slot = min(Int(key[index]), spareSlot)
            if let wanted = self.category, category[index] != wanted { slot = spareSlot }
            slots[(slot &* 2) | (index & 1)] += SIMD2(Double(energy[index]), 1)
            index &+= 1
        }
    }
}
