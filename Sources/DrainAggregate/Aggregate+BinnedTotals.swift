import DrainTrace

extension Aggregate {
    /// Joules per bin and category, row-major: `result[bin * EnergyCategory.count + category]`.
    ///
    /// Bin `b` covers `[origin + b × binWidth, origin + (b + 1) × binWidth)`, exactly as in
    /// `ScalarAggregate.binnedTotals` (bin = (time − origin) / binWidth in integer division): an
    /// entry on a bin edge belongs to the later bin; entries before `origin` or at or after the
    /// end of the last bin are ignored. Offsets are computed in unsigned 64-bit arithmetic, so
    /// no time or origin overflows.
    ///
    /// A time-sorted ledger is cut into bins without a division per entry: a search finds the
    /// first entry at or after `origin`, then for each non-empty bin one division names the
    /// bin of its first entry, a galloping search (from where the previous bin's length
    /// predicts) finds the bin's end, and the category kernel (`CategoryTotalsKernel`, whose
    /// rounding bound applies per bin) sums the range. O(n + m log(n / m)) for m non-empty
    /// bins, plus O(binCount) to allocate the result. An unsorted ledger (`isSorted == false`)
    /// takes a plain pass with one division per entry, summing in `Double`, O(n).
    ///
    /// - Precondition: `binWidth > 0` and `binCount >= 0`.
    public static func binnedTotals(
        _ ledger: CostLedger, origin: Nanoseconds, binWidth: Nanoseconds, binCount: Int
    ) -> [Double] {
        precondition(binWidth > 0 && binCount >= 0, "binWidth must be positive and binCount non-negative")
        var bins = [Double](repeating: 0, count: binCount * EnergyCategory.count)
        bins.withUnsafeMutableBufferPointer { bins in
            addBinnedTotals(ledger, origin: origin, binWidth: binWidth, binCount: binCount, into: bins.baseAddress!)
        }
        return bins
    }

    /// `binnedTotals`, added to the `binCount × EnergyCategory.count` values at `bins`.
    ///
    /// - Precondition: `binWidth > 0` and `binCount >= 0`.
    public static func addBinnedTotals(
        _ ledger: CostLedger, origin: Nanoseconds, binWidth: Nanoseconds, binCount: Int,
        into bins: UnsafeMutablePointer<Double>
    ) {
        precondition(binWidth > 0 && binCount >= 0, "binWidth must be positive and binCount non-negative")
        guard binCount > 0 else { return }
        ledger.time.withUnsafeBufferPointer { time in
            ledger.energy.withUnsafeBufferPointer { energy in
                ledger.category.withUnsafeBufferPointer { category in
                    guard let energy = energy.baseAddress, let category = category.baseAddress else { return }
                    let binning = Binning(origin: origin, width: binWidth, count: binCount)
                    if ledger.isSorted {
                        binning.sumSorted(time: time, energy: energy, category: category, into: bins)
                    } else {
                        binning.sumUnsorted(time: time, energy: energy, category: category, into: bins)
                    }
                }
            }
        }
    }
}

/// Bin geometry in offset space: an entry's offset is `time − origin` as an exact unsigned
/// value (valid for `time ≥ origin`), and bin `b` holds offsets in `[b × width, (b + 1) × width)`.
private struct Binning {
    let origin: Nanoseconds
    let width: UInt64
    let count: UInt64

    init(origin: Nanoseconds, width: Nanoseconds, count: Int) {
        self.origin = origin
        self.width = UInt64(width)
        self.count = UInt64(count)
    }

    /// `time − origin`, exact for `time ≥ origin` (the difference of two `Int64` fits in 64 bits unsigned).
    @inline(__always)
    func offset(_ time: Nanoseconds) -> UInt64 {
        UInt64(bitPattern: time &- origin)
    }

    func sumSorted(
        time: UnsafeBufferPointer<Nanoseconds>, energy: UnsafePointer<Float>, category: UnsafePointer<UInt8>,
        into bins: UnsafeMutablePointer<Double>
    ) {
        let count = time.count
        var start = Self.firstIndex(in: time, from: 0, near: 0) { $0 >= origin }
        var previousLength = 0
        while start < count {
            let bin = offset(time[start]) / width
            guard bin < self.count else { return }
            let (binEnd, overflow) = (bin + 1).multipliedReportingOverflow(by: width)
            // Bins of a steady run hold similar numbers of entries: searching from where the
            // previous length would end touches a few nearby cache lines of `time` instead of
            // galloping across the whole bin.
            let end =
                overflow
                ? count
                : Self.firstIndex(in: time, from: start + 1, near: start + previousLength) { offset($0) >= binEnd }
            CategoryTotalsKernel.accumulate(
                energy: energy, category: category, range: start..<end,
                into: bins + Int(bin) * EnergyCategory.count)
            previousLength = end - start
            start = end
        }
    }

    func sumUnsorted(
        time: UnsafeBufferPointer<Nanoseconds>, energy: UnsafePointer<Float>, category: UnsafePointer<UInt8>,
        into bins: UnsafeMutablePointer<Double>
    ) {
        for index in time.indices where time[index] >= origin {
            let bin = offset(time[index]) / width
            let slot = Int(category[index])
            guard bin < count, slot < EnergyCategory.count else { continue }
            bins[Int(bin) * EnergyCategory.count + slot] += Double(energy[index])
        }
    }

    /// The first index at or after `start` whose time satisfies `isPast`, or `time.count`;
    /// `isPast` must be false then true along the sorted times. Gallops from `guess` — forward
    /// if the guess is not yet past, else back towards `start` — with steps 1, 2, 4…, then
    /// bisects, so an answer `d` places from the guess costs O(log d) probes.
    static func firstIndex(
        in time: UnsafeBufferPointer<Nanoseconds>, from start: Int, near guess: Int,
        where isPast: (Nanoseconds) -> Bool
    ) -> Int {
        // Invariant: the answer lies in low...high (high may be time.count).
        var low = start
        var high = time.count
        var probe = min(max(guess, start), time.count)
        var step = 1
        if probe < time.count, !isPast(time[probe]) {
            repeat {
                low = probe + 1
                probe = low + step - 1
                step &<<= 1
            } while probe < time.count && !isPast(time[probe])
            high = min(probe, time.count)
        } else {
            high = probe
            while high - step >= low {
                probe = high - step
                if !isPast(time[probe]) {
                    low = probe + 1
                    break
                }
                high = probe
                step &<<= 1
            }
        }
        while low < high {
            let middle = low + (high - low) / 2
            if isPast(time[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
