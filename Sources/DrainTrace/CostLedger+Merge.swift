extension CostLedger {
    /// One time-sorted ledger of the entries of two ledgers of the same resolution. Stable: in
    /// time order, at equal times `first`'s entries before `second`'s, each ledger's own entries
    /// in the order `sortByTime` gives.
    ///
    /// What each ledger's time order needs (`TimeOrder`: its entries out of line, sorted) is
    /// found on its own thread; the two orders are merged into one as they are read, and each
    /// column is then gathered once and its inputs released, so memory peaks at the inputs plus
    /// one column and the order. O(n + k log k) for n entries, k of them out of line.
    ///
    /// - Precondition: `first.resolution == second.resolution`, and fewer than 2³² entries.
    public static func merge(
        _ first: consuming CostLedger, _ second: consuming CostLedger, threads: Int = ParallelWork.defaultThreads()
    ) -> CostLedger {
        precondition(first.resolution == second.resolution, "only ledgers of one resolution merge")
        precondition(first.count + second.count < Int(UInt32.max), "a ledger holds fewer than 2³² entries")
        // Also keeps the builders below off zero capacity, where `Array(unsafeUninitializedCapacity:)`
        // writes its count into the storage all empty arrays share (a race between threads).
        if second.count == 0 {
            first.sortByTime()
            return first
        }
        if first.count == 0 {
            second.sortByTime()
            return second
        }
        let order = mergedOrder(first, second, threads: threads)
        let split = first.count
        var merged = CostLedger(resolution: first.resolution)
        merged.time = gather(&first.time, &second.time, order, split)
        merged.category = gather(&first.category, &second.category, order, split)
        merged.energy = gather(&first.energy, &second.energy, order, split)
        merged.key = gather(&first.key, &second.key, order, split)
        return merged
    }

    /// The merged order as positions in `first` followed by `second` (`first.count + i` for
    /// `second`'s entry `i`). Each ledger's own order is read as it is merged, not stored
    /// (`TimeOrder`): 4 bytes per entry for the result, plus 4 per entry out of line.
    private static func mergedOrder(_ first: CostLedger, _ second: CostLedger, threads: Int) -> [UInt32] {
        let orders = ParallelWork.map(2, threads: threads) { which -> TimeOrder in
            TimeOrder(which == 0 ? first.time : second.time)
        }
        var (firstOrder, secondOrder) = (orders[0], orders[1])
        let (firstTime, secondTime) = (first.time, second.time)
        let firstCount = firstTime.count
        return [UInt32](unsafeUninitializedCapacity: firstCount + secondTime.count) { out, initialized in
            var a = firstOrder.next()
            var b = secondOrder.next()
            var next = 0
            while let i = a, let j = b {
                if secondTime[j] < firstTime[i] {
                    out[next] = UInt32(truncatingIfNeeded: firstCount + j)
                    b = secondOrder.next()
                } else {
                    out[next] = UInt32(truncatingIfNeeded: i)
                    a = firstOrder.next()
                }
                next += 1
            }
            while let i = a {
                out[next] = UInt32(truncatingIfNeeded: i)
                (a, next) = (firstOrder.next(), next + 1)
            }
            while let j = b {
                out[next] = UInt32(truncatingIfNeeded: firstCount + j)
                (b, next) = (secondOrder.next(), next + 1)
            }
            initialized = next
        }
    }

    /// `first` followed by `second`, taken in `order` (positions below `split` are `first`'s);
    /// both are emptied.
    private static func gather<Element>(
        _ first: inout [Element], _ second: inout [Element], _ order: [UInt32], _ split: Int
    ) -> [Element] {
        let merged = first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { second in
                order.withUnsafeBufferPointer { order in
                    [Element](unsafeUninitializedCapacity: order.count) { out, initialized in
                        for (position, source) in order.enumerated() {
                            let index = Int(source)
                            out.initializeElement(at: position, to: index < split ? first[index] : second[index - split])
                        }
                        initialized = order.count
                    }
                }
            }
        }
        first = []
        second = []
        return merged
    }
}
