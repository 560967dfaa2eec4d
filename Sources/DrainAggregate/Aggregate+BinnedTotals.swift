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
    /// A time-sorted ledger is cut into bins without a division per entry: a binary search
    /// finds the first entry at or after `origin`, then for each non-empty bin one division
    /// names the bin of its first entry and a galloping search finds the bin's end, and the
    /// range is summed by the category kernel. O(n + m log(n / m)) for m non-empty bins, plus
    /// O(binCount) to allocate the result. An unsorted ledger (`isSorted == false`) takes a
    /// plain pass with one division per entry, O(n).
    ///
    /// - Precondition: `binWidth > 0` and `binCount >= 0`.
    public static func binnedTotals(
        _ ledger: CostLedger, origin: Nanoseconds, binWidth: Nanoseconds, binCount: Int
    ) -> [Double] {
        precondition(binWidth > 0 && binCount >= 0, "binWidth must be positive and binCount non-negative")
        var bins = [Double](repeating: 0, count: binCount * EnergyCategory.count)
        guard binCount > 0 else { return bins }
        ledger.time.withUnsafeBufferPointer { time in
            ledger.energy.withUnsafeBufferPointer { energy in
                ledger.category.withUnsafeBufferPointer { category in
                    bins.withUnsafeMutableBufferPointer { bins in
                        guard let energy = energy.baseAddress, let category = category.baseAddress else { return }
                        let binning = Binning(origin: origin, width: binWidth, count: binCount)
                        if ledger.isSorted {
                            binning.sumSorted(time: time, energy: energy, category: category, into: bins.baseAddress!)
                        } else {
                            binning.sumUnsorted(time: time, energy: energy, category: category, into: bins.baseAddress!)
                        }
                    }
                }
            }
        }
        return bins
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
        var start = Self.firstIndex(in: time, from: 0) { $0 >= origin }
        while start < count {
            let bin = offset(time[start]) / width
            guard bin < self.count else { return }
            let (binEnd, overflow) = (bin + 1).multipliedReportingOverflow(by: width)
            let end = overflow ? count : Self.firstIndex(in: time, from: start + 1) { offset($0) >= binEnd }
            CategoryTotalsKernel.accumulate(
                energy: energy, category: category, range: start..<end,
                into: bins + Int(bin) * EnergyCategory.count)
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
    /// `isPast` must be false then true along the sorted times. Gallops from `start` (steps 1,
    /// 2, 4…) then bisects, so finding an index `d` places away costs O(log d).
    static func firstIndex(
        in time: UnsafeBufferPointer<Nanoseconds>, from start: Int, where isPast: (Nanoseconds) -> Bool
    ) -> Int {
        var low = start
        var high = start
        var step = 1
        while high < time.count, !isPast(time[high]) {
            low = high + 1
            high = low + step - 1
            step &<<= 1
        }
        high = min(high, time.count)
        while low < high {
            let middle = low + (high - low) / 2
            if isPast(time[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
