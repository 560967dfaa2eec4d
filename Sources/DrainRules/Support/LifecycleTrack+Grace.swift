import Algorithms
import DrainTrace

extension LifecycleTrack {
    /// The background stretches in which the span `[start, end)` is still going on more than
    /// `grace` after the stretch began: the span overlaps `(stretch.start + grace,
    /// stretch.end)` for a positive time. So a span that ends exactly `grace` after entering
    /// the background is not late, and one that starts in the background after the grace is.
    /// Indices in time order. O(log s + k) for s stretches, k of them overlapping the span.
    func stretches(spanning start: Nanoseconds, to end: Nanoseconds, pastGrace grace: Nanoseconds) -> [Int] {
        var late: [Int] = []
        forEachStretch(spanning: start, to: end, pastGrace: grace) { index in
            late.append(index)
            return true
        }
        return late
    }

    /// The first of `stretches(spanning:to:pastGrace:)`, without building the list: rules ask
    /// it for every event. O(log s + k).
    func firstStretch(spanning start: Nanoseconds, to end: Nanoseconds, pastGrace grace: Nanoseconds) -> Int? {
        var first: Int?
        forEachStretch(spanning: start, to: end, pastGrace: grace) { index in
            first = index
            return false
        }
        return first
    }

    /// Calls `body` with each late stretch in time order while it returns true.
    private func forEachStretch(
        spanning start: Nanoseconds, to end: Nanoseconds, pastGrace grace: Nanoseconds, _ body: (Int) -> Bool
    ) {
        var index = stretches.partitioningIndex { $0.end > start }
        while index < stretches.count, stretches[index].start < end {
            let stretch = stretches[index]
            if min(end, stretch.end) > max(start, stretch.start.plus(grace)), !body(index) { return }
            index += 1
        }
    }
}
