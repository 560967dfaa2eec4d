import DrainTrace

/// A run's priced energy, reduced while it is priced: joules per category, per bin of a
/// `BinGrid` and category, and per key within each category. These are all a report reads of
/// the priced work, so pricing keeps a short `CostLedger` and folds it in here whenever it
/// fills (`fold(_:)`): memory grows with the grid's bins and the keys that were charged, not
/// with its events (4 bytes per string of the run, plus 32 per charged key and category).
///
/// Every sum is the aggregation core's (`Aggregate.addTotals`, `Aggregate.addBinnedTotals`,
/// `KeyedSums`), so it is the sum over all entries within the rounding bounds stated there;
/// which entries share a `Float` block depends on where the folds fall, so sums agree with one
/// pass over a whole ledger to those bounds, not bit for bit.
public struct CostSummary: Sendable {
    /// How many entries pricing lets a ledger hold before folding it: about 1.1 MB of
    /// columns, which the folds' passes find in cache.
    public static let foldLength = 1 << 16

    public private(set) var grid: BinGrid
    /// Keys are below this (the timeline's string count).
    public let keyCount: Int
    /// Joules per category, indexed by `EnergyCategory.rawValue`.
    public private(set) var totals = [Double](repeating: 0, count: EnergyCategory.count)
    /// Joules per bin and category: `bins[bin * EnergyCategory.count + category]`.
    public private(set) var bins: [Double]
    /// Per category, the sums of the charged keys, by their place in `chargedKeys`; made when the
    /// category's first entry is folded in. A run interns far more strings than it charges (a
    /// capture has one per connection, energy goes to hosts), so sums are not kept per string.
    private var keyed: [KeyedSums?] = Array(repeating: nil, count: EnergyCategory.count)
    /// The keys that had an entry, in the order they first did, and each string's place among
    /// them (`unplaced` for none), made at the first fold.
    private var chargedKeys: [StringID] = []
    private var placeOfKey: [UInt32] = []
    private static let unplaced = UInt32.max

    public init(grid: BinGrid, keyCount: Int) {
        self.grid = grid
        self.keyCount = keyCount
        bins = [Double](repeating: 0, count: grid.binCount * EnergyCategory.count)
    }

    /// The place of `key` among the charged keys, placing it if it has none; `unplaced` for a key
    /// at or above `keyCount`, which the keyed sums leave out.
    private mutating func place(_ key: StringID) -> UInt32 {
        guard Int(key) < keyCount else { return Self.unplaced }
        if placeOfKey.isEmpty { placeOfKey = [UInt32](repeating: Self.unplaced, count: keyCount) }
        let placed = placeOfKey[Int(key)]
        if placed != Self.unplaced { return placed }
        placeOfKey[Int(key)] = UInt32(chargedKeys.count)
        chargedKeys.append(key)
        return UInt32(chargedKeys.count - 1)
    }

    /// Adds every entry of `ledger` and empties it, keeping its capacity. The ledger is sorted
    /// by time first, so each bin is one run of entries for the category kernel. O(n + k log k)
    /// for n entries, k of them out of time order, plus O(pieces of the grid).
    public mutating func fold(_ ledger: inout CostLedger) {
        guard ledger.count > 0 else { return }
        ledger.sortByTime()
        totals.withUnsafeMutableBufferPointer { Aggregate.addTotals(ledger, into: $0.baseAddress!) }
        let gained = grid.extend(toCover: ledger.time[ledger.count - 1])
        if gained > 0 { bins.append(contentsOf: repeatElement(0, count: gained * EnergyCategory.count)) }
        bins.withUnsafeMutableBufferPointer { bins in
            for piece in grid.pieces {
                Aggregate.addBinnedTotals(
                    ledger, origin: piece.origin, binWidth: piece.width, binCount: piece.count,
                    into: bins.baseAddress! + piece.firstBin * EnergyCategory.count)
            }
        }
        var present: UInt8 = 0
        for category in ledger.category where category < 8 { present |= 1 << category }
        // The ledger is emptied below, so its keys are turned into places where they lie.
        ledger.replaceKeys { place($0) }
        for category in EnergyCategory.allCases where present & (1 << category.rawValue) != 0 {
            let index = Int(category.rawValue)
            if keyed[index] == nil { keyed[index] = KeyedSums(keyCount: 0, category: category) }
            keyed[index]!.grow(toKeyCount: chargedKeys.count)
            keyed[index]!.add(ledger)
        }
        ledger.removeAll()
    }

    /// Ends the grid's open last segment at `end` (the run's end, known once its radio tails
    /// are): the bins after it are dropped, as a ledger summed into bins to `end` drops them.
    /// O(bins dropped or added).
    public mutating func close(at end: Nanoseconds) {
        let count = grid.close(at: end) * EnergyCategory.count
        if bins.count > count {
            bins.removeLast(bins.count - count)
        } else {
            bins.append(contentsOf: repeatElement(0, count: count - bins.count))
        }
    }

    /// Adds the sums of `other`, a summary on the same grid (both closed at the same end) and
    /// with the same keys. Exact where only one of the two has energy, as when each pricing
    /// pass prices its own categories. O(bins + keys of `other`'s categories).
    ///
    /// - Precondition: the two grids and key counts are equal.
    public mutating func add(_ other: CostSummary) {
        precondition(grid == other.grid && keyCount == other.keyCount, "only summaries on one grid and key set add up")
        for index in totals.indices { totals[index] += other.totals[index] }
        for index in bins.indices { bins[index] += other.bins[index] }
        let places = other.chargedKeys.map { place($0) }
        for index in keyed.indices {
            guard let theirs = other.keyed[index] else { continue }
            if keyed[index] == nil { keyed[index] = KeyedSums(keyCount: 0, category: theirs.category) }
            keyed[index]!.grow(toKeyCount: chargedKeys.count)
            keyed[index]!.add(theirs) { Int(places[$0]) }
        }
    }

    /// The joules and entries of every key `category` charged (one entry or more), by key.
    /// O(k log k) for k keys charged in any category.
    public func charges(for category: EnergyCategory) -> [KeyCharge] {
        guard let sums = keyed[Int(category.rawValue)] else { return [] }
        return chargedKeys.indices.compactMap { place in
            let entries = place < sums.keyCount ? sums.entries(of: place) : 0
            return entries > 0 ? KeyCharge(key: chargedKeys[place], energyJ: sums.energy(of: place), entries: entries) : nil
        }
        .sorted { $0.key < $1.key }
    }

    /// The joules charged to `key` in `category` (0 when none were). O(1).
    public func energy(of key: StringID, in category: EnergyCategory) -> Double {
        guard Int(key) < placeOfKey.count, let sums = keyed[Int(category.rawValue)] else { return 0 }
        let place = Int(placeOfKey[Int(key)])
        return place < sums.keyCount ? sums.energy(of: place) : 0
    }
}

/// What a category charged one key: joules and how many ledger entries.
public struct KeyCharge: Sendable, Equatable {
    public var key: StringID
    public var energyJ: Double
    public var entries: Int

    public init(key: StringID, energyJ: Double, entries: Int) {
        self.key = key
        self.energyJ = energyJ
        self.entries = entries
    }
}
