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
    private static func shift(forRange range: Int64) -> Int {
        max(0, (Int64.bitWidth - (range - 1).leadingZeroBitCount) - bucketBits)
    }

    private static func buckets(range: Int64, shift: Int) -> Int {
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
    /// added, in any order; it is called only when the bound is above 2^16, once or twice per
    /// middle value. O(buckets) per pass.
    func median(replaying replay: ((Int64) -> Void) -> Void) -> Double {
        guard count > 0 else { return 0 }
        let upper = value(rank: count / 2, replay)
        guard count.isMultiple(of: 2) else { return Double(upper) }
        return (Double(value(rank: count / 2 - 1, replay)) + Double(upper)) / 2
    }

    /// The value at `rank` in sorted order (rank 0 is the smallest).
    private func value(rank: Int, _ replay: ((Int64) -> Void) -> Void) -> Int64 {
        var lower: Int64 = 0
        var shift = self.shift
        var counts = self.counts
        var below = 0
        while true {
            var bucket = 0
            while below + Int(counts[bucket]) <= rank {
                below += Int(counts[bucket])
                bucket += 1
            }
            lower += Int64(bucket) << shift
            guard shift > 0 else { return lower }
            let range = Int64(1) << shift
            shift = Self.shift(forRange: range)
            counts = [UInt32](repeating: 0, count: Self.buckets(range: range, shift: shift))
            replay { [lower, shift] value in
                let offset = value &- lower
                if offset >= 0, offset < range { counts[Int(offset >> shift)] += 1 }
            }
        }
    }
}
