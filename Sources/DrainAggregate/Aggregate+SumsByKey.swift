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
    /// - Precondition: `0 <= keyCount <= UInt32.max` (keys are 32-bit).
    public static func sumsByKey(
        _ ledger: CostLedger, keyCount: Int, category: EnergyCategory? = nil
    ) -> (energy: [Double], entries: [Int]) {
        var sums = KeyedSums(keyCount: keyCount, category: category)
        sums.add(ledger)
        return sums.arrays
    }
}

/// Joules and entry counts per key (`StringID`, `0..<keyCount`) of one category (or of all),
/// added ledger by ledger (`Aggregate.sumsByKey` is one ledger's). 32 bytes per key.
public struct KeyedSums: Sendable {
    public private(set) var keyCount: Int
    public let category: EnergyCategory?
    /// Slot s of bank b is `slots[2 * s + b]`: (joules, entries); slot `keyCount` is the spare.
    private var slots: [SIMD2<Double>]

    /// - Precondition: `0 <= keyCount <= UInt32.max` (keys are 32-bit).
    public init(keyCount: Int, category: EnergyCategory? = nil) {
        precondition(keyCount >= 0 && keyCount <= Int(UInt32.max), "keyCount must be in 0...UInt32.max")
        self.keyCount = keyCount
        self.category = category
        slots = [SIMD2<Double>](repeating: .zero, count: 2 * (keyCount + 1))
    }

    /// Adds the entries of `ledger` (of this category, with a key below `keyCount`). O(n).
    public mutating func add(_ ledger: CostLedger) {
        guard keyCount > 0, ledger.count > 0 else { return }
        let kernel = KeyedSumKernel(keyCount: keyCount, category: category)
        ledger.energy.withUnsafeBufferPointer { energyColumn in
            ledger.key.withUnsafeBufferPointer { keyColumn in
                ledger.category.withUnsafeBufferPointer { categoryColumn in
                    slots.withUnsafeMutableBufferPointer { slots in
                        kernel.accumulate(
                            energy: energyColumn.baseAddress!, key: keyColumn.baseAddress!,
                            category: categoryColumn.baseAddress!, count: ledger.count, into: slots.baseAddress!)
                    }
                }
            }
        }
    }

    /// Makes room for keys up to `count` (their sums zero); fewer keys than now is no change.
    /// Amortised O(keys added).
    public mutating func grow(toKeyCount count: Int) {
        guard count > keyCount else { return }
        precondition(count <= Int(UInt32.max), "keyCount must be in 0...UInt32.max")
        // The spare slot moves to the end, emptied: entries out of range counted nowhere.
        slots.removeLast(2)
        slots.append(contentsOf: repeatElement(.zero, count: 2 * (count - keyCount + 1)))
        keyCount = count
    }

    /// Adds `other`'s sums, its key `k` to this key `keyOf(k)`, bank by bank. O(other's keys).
    ///
    /// - Precondition: `keyOf` maps every key of `other` below `keyCount`; same `category`.
    public mutating func add(_ other: KeyedSums, keyOf: (Int) -> Int) {
        precondition(category == other.category, "only sums of one category add up")
        for key in 0..<other.keyCount {
            let ours = keyOf(key)
            precondition(ours >= 0 && ours < keyCount, "a key maps outside these sums")
            slots[2 * ours] += other.slots[2 * key]
            slots[2 * ours + 1] += other.slots[2 * key + 1]
        }
    }

    /// The joules of `key`. O(1).
    public func energy(of key: Int) -> Double {
        slots[2 * key][0] + slots[2 * key + 1][0]
    }

    /// How many entries `key` had. O(1).
    public func entries(of key: Int) -> Int {
        Int(slots[2 * key][1] + slots[2 * key + 1][1])
    }

    /// Joules and entries of every key, as arrays indexed by key. O(keyCount).
    public var arrays: (energy: [Double], entries: [Int]) {
        ((0..<keyCount).map(energy(of:)), (0..<keyCount).map(entries(of:)))
    }
}

/// The scatter loop of `Aggregate.sumsByKey`. Counts ride along as `Double`, exact below 2⁵³
/// entries per key.
private struct KeyedSumKernel {
    let spare: UInt32
    /// The category to keep, or `nil` for all.
    let category: UInt8?

    init(keyCount: Int, category: EnergyCategory?) {
        spare = UInt32(keyCount)
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
