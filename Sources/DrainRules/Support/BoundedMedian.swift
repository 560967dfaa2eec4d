/// The exact median of whole numbers in `0..<bound`, in memory that does not grow with how
/// many there are: at most 65,536 counters (256 KiB), however long the run.
///
/// The values are counted in buckets of 2^`shift` numbers each, `shift` chosen so that the
/// buckets cover the bound; below 65,537 every bucket is one number and the counts give the
/// median at once. Above it, the bucket that holds a middle value is counted again, finer, over
/// another pass of the same values (`median(replaying:)`), until its buckets are one number
/// wide: one pass more for bounds up to 2^32, two up to 2^48.
///
/// Why: NET-SMALL-BURSTS kept every small burst's size to sort them for the median, 8 bytes a
/// burst, and a long capture has hundreds of thousands of small bursts.
struct BoundedMedian {
    static let bucketBits = 16

    private let bound: Int64
    private let shift: Int
    private var counts: [UInt32]
    private(set) var count = 0

    /// Counts values in `0..<bound`. O(min(bound, 65,536)) memory.
    init(below bound: Int64) {
        self.bound = max(1, bound)
        shift = Self.shift(forRange: self.bound)
        counts = [UInt32](repeating: 0, count: Self.buckets(range: self.bound, shift: shift))
    }

    /// The smallest shift that counts `range` numbers in at most 2^16 buckets.
    fileprivate static func shift(forRange range: Int64) -> Int {
        max(0, (Int64.bitWidth - (range - 1).leadingZeroBitCount) - bucketBits)
    }

    fileprivate static func buckets(range: Int64, shift: Int) -> Int {
        Int((range - 1) >> shift) + 1
    }

    /// Counts `value`. O(1).
    ///
    /// - Precondition: `0 <= value < bound`.
    mutating func add(_ value: Int64) {
        precondition(value >= 0 && value < bound, "a value within the median's bound")
        counts[Int(value >> shift)] += 1
        count += 1
    }

    /// The median of the values added: the middle one, or the mean of the middle two for an
    /// even count; 0 when there are none. `replay` must call its argument with every value
    /// added, in any order; it is called only when the bound is above 2^16, once per pass
    /// more, the two middle values of an even count narrowed in the same passes. O(buckets)
    /// per pass.
    func median(replaying replay: ((Int64) -> Void) -> Void) -> Double {
        guard count > 0 else { return 0 }
        var upper = Search(rank: count / 2, of: self)
        var lower = count.isMultiple(of: 2) ? Search(rank: count / 2 - 1, of: self) : nil
        while !(upper.found && lower?.found ?? true) {
            replay { value in
                upper.count(value)
                lower?.count(value)
            }
            upper.narrow()
            lower?.narrow()
        }
        guard let lower else { return Double(upper.value) }
        return (Double(lower.value) + Double(upper.value)) / 2
    }

    /// The search for the value at one rank in sorted order (rank 0 is the smallest): the
    /// bucket that holds it, counted again finer on each pass until it is one number wide.
    private struct Search {
        let rank: Int
        /// The bucket's first value, once `narrow()` has found it.
        private(set) var value: Int64 = 0
        /// The width of the buckets in `counts`, 2^`shift` numbers, and how many values lie
        /// below the first one.
        private var shift: Int
        private var below = 0
        private var counts: [UInt32]
        /// The bucket being counted again: `value..<(value + range)`.
        private var range: Int64 = 0
        private(set) var found = false

        init(rank: Int, of median: BoundedMedian) {
            self.rank = rank
            shift = median.shift
            counts = median.counts
            narrow()
        }

        /// Counts `value` if it is in the bucket being counted again.
        mutating func count(_ value: Int64) {
            guard !found else { return }
            let offset = value &- self.value
            if offset >= 0, offset < range { counts[Int(offset >> shift)] += 1 }
        }

        /// Finds the bucket of the rank among the counts, and makes it the one to count again
        /// unless it is one number wide.
        mutating func narrow() {
            guard !found else { return }
            var bucket = 0
            while below + Int(counts[bucket]) <= rank {
                below += Int(counts[bucket])
                bucket += 1
            }
            value += Int64(bucket) << shift
            guard shift > 0 else {
                found = true
                return
            }
            range = Int64(1) << shift
            shift = BoundedMedian.shift(forRange: range)
            counts = [UInt32](repeating: 0, count: BoundedMedian.buckets(range: range, shift: shift))
        }
    }
}
