import DrainAggregate
import DrainTrace

/// `drain-bench aggregate [--events N] [--repeat N]`: times every reduction of the aggregation
/// core, `Aggregate` against its reference `ScalarAggregate`, on one synthetic ledger shaped
/// like a long real run (default 10 M entries over about 3 hours, skewed categories, ~1000
/// keys), and prints entries per second for each and their ratio.
enum AggregateBenchmark {
    static func run(_ arguments: [String]) {
        guard let events = positiveInteger("--events", in: arguments, default: 10_000_000),
            let repeats = positiveInteger("--repeat", in: arguments, default: 5)
        else {
            print("usage: drain-bench aggregate [--events N] [--repeat N]  (N a positive integer)")
            exit(64)
        }
        print("building a ledger of \(events) entries…")
        let ledger = syntheticLedger(count: events)
        let origin = ledger.time.first ?? 0
        let span = (ledger.time.last ?? 0) - origin
        let energies = ledger.energy.map(Double.init)
        print("ledger: \(ledger.count) entries over \(span / Clock.nanosecondsPerSecond) s, \(keyCount) keys\n")

        var sink = 0.0
        let totals = compare("totals", items: ledger.count, repeats: repeats) {
            sink += Aggregate.totals(ledger)[0]
        } reference: {
            sink += ScalarAggregate.totals(ledger)[0]
        }
        // What no per-category kernel can beat: the energy column alone, summed in 16 lanes with
        // no category at all (it reads 4 of the 5 bytes per entry that totals read).
        let ceiling = Measurement(name: "ceiling: energy column summed, no categories", items: ledger.count, unit: "entries")
            .run(repeats: repeats) { sink += columnSum(ledger.energy) }
        print("totals: Aggregate reaches \(Formatting.fixed(totals / ceiling * 100, digits: 0)) % of that ceiling")
        print("totals: Aggregate's banked loop runs \(Aggregate.totalsUseAVX2 ? "in AVX2" : "in portable Swift (no AVX2 here)")")
        let stores = Measurement(
            name: "bound of the portable loop: one Float add into memory per entry, no categories", items: ledger.count, unit: "entries")
            .run(repeats: repeats) { sink += storePerEntrySum(ledger.energy) }
        print("totals: Aggregate reaches \(Formatting.fixed(totals / stores * 100, digits: 0)) % of that bound")
        let masked = Measurement(name: "alternative: lane-masked totals in registers", items: ledger.count, unit: "entries")
            .run(repeats: repeats) { sink += laneMaskedTotals(ledger)[0] }
        print("totals: Aggregate / lane-masked = \(Formatting.fixed(totals / masked, digits: 2))×\n")
        for seconds: Int64 in [1, 60] {
            let width = seconds * Clock.nanosecondsPerSecond
            let bins = Int(span / width) + 1
            compare("binned totals, \(seconds) s bins (\(bins))", items: ledger.count, repeats: repeats) {
                sink += Aggregate.binnedTotals(ledger, origin: origin, binWidth: width, binCount: bins)[0]
            } reference: {
                sink += ScalarAggregate.binnedTotals(ledger, origin: origin, binWidth: width, binCount: bins)[0]
            }
        }
        for category in [nil, EnergyCategory.radio] {
            compare("sums by key, \(category?.name ?? "all categories")", items: ledger.count, repeats: repeats) {
                sink += Aggregate.sumsByKey(ledger, keyCount: keyCount, category: category).energy[1]
            } reference: {
                sink += ScalarAggregate.sumsByKey(ledger, keyCount: keyCount, category: category).energy[1]
            }
        }
        compare("statistics, Double column", items: energies.count, repeats: repeats) {
            sink += Aggregate.statistics(energies)?.sum ?? 0
        } reference: {
            sink += ScalarAggregate.statistics(energies)?.sum ?? 0
        }
        compare("statistics, Int64 column", items: ledger.count, repeats: repeats) {
            sink += Aggregate.statistics(ledger.time)?.sum ?? 0
        } reference: {
            sink += ScalarAggregate.statistics(ledger.time)?.sum ?? 0
        }
        compare("percentiles p50, p90, p99", items: energies.count, repeats: repeats) {
            sink += Aggregate.percentiles(energies, [50, 90, 99])[0]
        } reference: {
            sink += ScalarAggregate.percentiles(energies, [50, 90, 99])[0]
        }
        print("(checksum \(sink))")
    }

    /// Runs both bodies, prints their rates and the ratio, and returns the first's rate.
    @discardableResult
    private static func compare(
        _ name: String, items: Int, repeats: Int, _ body: () -> Void, reference: () -> Void
    ) -> Double {
        let fast = Measurement(name: "\(name): Aggregate", items: items, unit: "entries").run(repeats: repeats, body)
        let slow = Measurement(name: "\(name): ScalarAggregate", items: items, unit: "entries").run(
            repeats: repeats, reference)
        print("\(name): Aggregate / ScalarAggregate = \(Formatting.fixed(fast / slow, digits: 2))×\n")
        return fast
    }

    /// The sum of `column` in four `SIMD16<Float>` accumulators, folded into a `Double` every
    /// 4,096 values as the totals kernel folds its banks.
    private static func columnSum(_ column: [Float]) -> Double {
        column.withUnsafeBufferPointer { values in
            var total = 0.0
            var start = 0
            while start < values.count {
                let end = min(values.count, start + 4_096)
                var lanes = (SIMD16<Float>(), SIMD16<Float>(), SIMD16<Float>(), SIMD16<Float>())
                var index = start
                while index + 64 <= end {
                    lanes.0 += SIMD16<Float>(values[index..<index + 16])
                    lanes.1 += SIMD16<Float>(values[index + 16..<index + 32])
                    lanes.2 += SIMD16<Float>(values[index + 32..<index + 48])
                    lanes.3 += SIMD16<Float>(values[index + 48..<index + 64])
                    index += 64
                }
                total += Double(((lanes.0 + lanes.1) + (lanes.2 + lanes.3)).sum())
                while index < end {
                    total += Double(values[index])
                    index += 1
                }
                start = end
            }
            return total
        }
    }

    private static func positiveInteger(_ name: String, in arguments: [String], default value: Int) -> Int? {
        guard let text = option(name, in: arguments) else {
            return arguments.contains(name) ? nil : value
        }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }

    private static let keyCount = 1000

    /// Category shares (percent) in the synthetic ledger: CPU and radio dominate, as in traces
    /// of networked apps.
    private static let categoryShares = [45, 25, 12, 8, 5, 3, 2]

    /// `count` entries with sorted times over about 3 hours (random steps around
    /// 3 h / count), categories drawn by `categoryShares`, keys skewed towards low ids (key =
    /// ⌊1000 u³⌋ for uniform u: a few hosts and files take most entries), energies log-uniform
    /// over 1 µJ … 10 J. Seeded, so every run measures the same ledger.
    private static func syntheticLedger(count: Int) -> CostLedger {
        var random = SplitMix64(seed: 0xD7A1_4E55)
        var ledger = CostLedger()
        ledger.reserveCapacity(count)
        let meanStep = 3 * 3600 * Clock.nanosecondsPerSecond / Int64(max(count, 1))
        var time: Nanoseconds = 0
        for _ in 0..<count {
            time += Int64(random.unit() * 2 * Double(meanStep))
            var pick = Int(random.unit() * 100)
            var category = 0
            while category < categoryShares.count - 1, pick >= categoryShares[category] {
                pick -= categoryShares[category]
                category += 1
            }
            let skew = random.unit()
            let key = StringID(Double(keyCount) * skew * skew * skew)
            let joules = pow(10, -6 + 7 * random.unit())
            ledger.add(time: time, category: EnergyCategory(rawValue: UInt8(category))!, joules: joules, key: key)
        }
        return ledger
    }
}

extension SplitMix64 {
    /// A uniform value in [0, 1): the top 53 bits of the next value.
    fileprivate mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
