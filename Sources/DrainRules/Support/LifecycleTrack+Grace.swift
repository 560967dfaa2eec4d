import DrainTrace

extension LifecycleTrack {
    /// The background stretches in which the span `[start, end)` is still going on more than
    /// `grace` after the stretch began: the span overlaps `(stretch.start + grace,
    /// stretch.end)` for a positive time. So a span that ends exactly `grace` after entering
    /// the background is not late, and one that starts in the background after the grace is.
    /// Indices in time order. O(log s + k) for s stretches, k of them overlapping the span.
    func stretches(spanning start: Nanoseconds, to end: Nanoseconds, pastGrace grace: Nanoseconds) -> [Int] {
        var low = 0, high = stretches.count
        while low < high {
            let middle = (low + high) / 2
            if stretches[middle].end <= start { low = middle + 1 } else { high = middle }
        }
        var late: [Int] = []
        var index = low
        while index < stretches.count, stretches[index].start < end {
            let stretch = stretches[index]
            if min(end, stretch.end) > max(start, stretch.start.plus(grace)) { late.append(index) }
            index += 1
        }
        return late
    }
}
