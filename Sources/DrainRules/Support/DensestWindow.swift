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
        guard !times.isEmpty else { return nil }
        var best = DensestWindow(first: 0, count: 0)
        var end = 0
        for start in times.indices {
            end = max(end, start)
            while end < times.count, times[end] - times[start] < length { end += 1 }
            if end - start > best.count { best = DensestWindow(first: start, count: end - start) }
        }
        return best
    }

    /// The indices of the instants in the window.
    var range: Range<Int> { first..<(first + count) }
}
