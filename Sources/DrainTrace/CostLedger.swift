/// Priced energy, one entry per priced piece of work, stored column by column and sorted by
/// time. This is what the aggregation core reduces.
///
/// Work that lasts longer than `resolution` (a 10 s radio tail, a location session) is split
/// into consecutive entries of at most `resolution` each, so that time-binned sums at bin
/// widths ≥ `resolution` place the energy where it was spent. A long run binned coarsely
/// takes a coarser resolution (`resolution(forBinWidth:)`): the ledger then grows with the
/// work done, not with the seconds its tails and sessions last.
///
/// Energies are `Float` joules (7 significant digits per entry) to halve memory traffic in the
/// SIMD reductions; every sum over entries is accumulated in `Double`.
public struct CostLedger: Sendable {
    /// The finest resolution, and the default: one second.
    public static let defaultResolution: Nanoseconds = 1_000_000_000

    /// The longest span one entry covers, in nanoseconds.
    public let resolution: Nanoseconds

    public internal(set) var time: [Nanoseconds] = []
    /// `EnergyCategory.rawValue` of each entry.
    public internal(set) var category: [UInt8] = []
    public internal(set) var energy: [Float] = []
    /// What the energy is attributed to: host for radio, path for disk, source or timer name
    /// for polling, slice name or thread for CPU, sensor kind… (ids of the timeline's strings).
    public internal(set) var key: [StringID] = []

    private var sorted = true

    /// A ledger whose entries cover at most `resolution` nanoseconds each (at least 1).
    public init(resolution: Nanoseconds = CostLedger.defaultResolution) {
        self.resolution = max(1, resolution)
    }

    /// The resolution for sums binned `binWidth` nanoseconds wide: an eighth of a bin, so no
    /// entry puts more than an eighth of a bin's width of work into the bin before; never
    /// finer than `defaultResolution`. O(1).
    public static func resolution(forBinWidth binWidth: Nanoseconds) -> Nanoseconds {
        max(defaultResolution, binWidth / 8)
    }

    public var count: Int { time.count }

    public mutating func reserveCapacity(_ capacity: Int) {
        time.reserveCapacity(capacity)
        category.reserveCapacity(capacity)
        energy.reserveCapacity(capacity)
        key.reserveCapacity(capacity)
    }

    /// Replaces each entry's key with `transform(key)`, in entry order. O(n) calls.
    public mutating func replaceKeys(_ transform: (StringID) -> StringID) {
        for index in key.indices { key[index] = transform(key[index]) }
    }

    /// Removes every entry, keeping the columns' capacity. O(1) for these trivial columns.
    public mutating func removeAll() {
        time.removeAll(keepingCapacity: true)
        category.removeAll(keepingCapacity: true)
        energy.removeAll(keepingCapacity: true)
        key.removeAll(keepingCapacity: true)
        sorted = true
    }

    /// Adds `joules` spent from `time` over `duration` nanoseconds (0 for an instant),
    /// splitting it evenly into entries of at most `resolution`. Amortised O(1 + duration /
    /// resolution).
    public mutating func add(
        time start: Nanoseconds, duration: Nanoseconds = 0, category: EnergyCategory, joules: Double,
        key: StringID = 0
    ) {
        guard joules != 0 else { return }
        let pieces = duration > resolution ? Int((duration - 1) / resolution + 1) : 1
        if let last = time.last, start < last { sorted = false }
        let share = joules / Double(pieces)
        for piece in 0..<pieces {
            let at = start + Int64(piece) * (pieces == 1 ? 0 : duration / Int64(pieces))
            time.append(at)
            self.category.append(category.rawValue)
            energy.append(Float(share))
            self.key.append(key)
        }
    }

    /// Sorts entries by time, stably. O(n + k log k) for k entries behind an earlier one
    /// (see `TimeOrder`), O(n log n) at worst; O(1) when already sorted.
    public mutating func sortByTime() {
        guard !sorted else { return }
        let order = Self.timeOrder(time)
        time = order.map { time[Int($0)] }
        category = order.map { category[Int($0)] }
        energy = order.map { energy[Int($0)] }
        key = order.map { key[Int($0)] }
        sorted = true
    }

    public var isSorted: Bool { sorted }

    /// The positions of `times` in stable time order (by time, then position), 4 bytes each.
    ///
    /// - Precondition: fewer than 2³² times.
    static func timeOrder(_ times: [Nanoseconds]) -> [UInt32] {
        var order = TimeOrder(times)
        return [UInt32](unsafeUninitializedCapacity: times.count) { out, initialized in
            while let position = order.next() {
                out[initialized] = UInt32(truncatingIfNeeded: position)
                initialized += 1
            }
        }
    }

    /// The positions of a column of times in stable time order (by time, then position), one
    /// at a time.
    ///
    /// A priced ledger comes nearly sorted: entries are added event by event, and only radio
    /// tails closed late and work split ahead into later pieces fall out of line (about one
    /// entry in six on a generated 10 M-event trace). So the entries not below the running
    /// maximum are taken as one sorted run, read in place, and the others are sorted on their
    /// own and merged in as the run is read: O(n + k log k) for k of the others, 4 bytes for
    /// each of them and nothing for the run. When more than a quarter of the entries fall out
    /// (an early entry far ahead of the rest), everything is sorted: O(n log n), 4 bytes an
    /// entry.
    struct TimeOrder: IteratorProtocol {
        private let times: [Nanoseconds]
        /// Positions below the running maximum, sorted; or every position, sorted, when
        /// `sortsAll`.
        private var behind: [UInt32] = []
        private let sortsAll: Bool
        private var nextBehind = 0
        /// The next position of the run to look at, and the run's maximum so far.
        private var position = 0
        private var highest = Nanoseconds.min

        /// - Precondition: fewer than 2³² times.
        init(_ times: [Nanoseconds]) {
            precondition(times.count < Int(UInt32.max), "a time order holds fewer than 2³² positions")
            self.times = times
            var highest = Nanoseconds.min
            for index in times.indices {
                if times[index] >= highest {
                    highest = times[index]
                } else {
                    behind.append(UInt32(truncatingIfNeeded: index))
                }
            }
            sortsAll = behind.count > times.count / 4
            if sortsAll { behind = (0..<UInt32(truncatingIfNeeded: times.count)).map { $0 } }
            behind.sort { Self.precedes(Int($0), Int($1), in: times) }
        }

        private static func precedes(_ lhs: Int, _ rhs: Int, in times: [Nanoseconds]) -> Bool {
            times[lhs] != times[rhs] ? times[lhs] < times[rhs] : lhs < rhs
        }

        /// The next position in time order, or nil after the last. Amortised O(1).
        mutating func next() -> Int? {
            if !sortsAll {
                // Skip what fell behind the run: it comes from `behind`.
                while position < times.count, times[position] < highest { position += 1 }
                if position < times.count {
                    if nextBehind < behind.count, Self.precedes(Int(behind[nextBehind]), position, in: times) {
                        nextBehind += 1
                        return Int(behind[nextBehind - 1])
                    }
                    highest = times[position]
                    position += 1
                    return position - 1
                }
            }
            guard nextBehind < behind.count else { return nil }
            nextBehind += 1
            return Int(behind[nextBehind - 1])
        }
    }
}
