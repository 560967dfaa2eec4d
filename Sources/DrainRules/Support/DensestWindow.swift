import DrainTrace

/// The window of a fixed length that holds the most of a set of instants.
///
/// Windows are half-open, `[t, t + length)`, and start at one of the instants (the densest
/// window always can). Used for "more than N per minute" thresholds, which hold when any
/// minute of the run, not the average one, is over.
struct DensestWindow: Equatable {
    /// Index (into the instants) of the first instant in the window.
    var first: Int
    /// How many instants the window holds.
    var count: Int

    /// The densest window over `times`, which must be sorted; the earliest wins a tie.
    /// `nil` when there are no instants. O(n), two pointers.
    static func find(in times: [Nanoseconds], length: Nanoseconds) -> DensestWindow? {
        find(count: times.count, length: length) { times[$0] }
    }

    /// The densest window over `count` sorted instants, the instant `i` being `time(i)`, for
    /// callers that keep rows rather than a copy of their times. O(count), two pointers.
    static func find(count: Int, length: Nanoseconds, time: (Int) -> Nanoseconds) -> DensestWindow? {
        guard count > 0 else { return nil }
        var best = DensestWindow(first: 0, count: 0)
        var end = 0
        for start in 0..<count {
            end = max(end, start)
            let from = time(start)
            while end < count, time(end) - from < length { end += 1 }
            if end - start > best.count { best = DensestWindow(first: start, count: end - start) }
        }
        return best
    }

    /// The indices of the instants in the window.
    var range: Range<Int> { first..<(first + count) }
}
