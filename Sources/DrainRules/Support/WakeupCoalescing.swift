import DrainTrace

/// How few wakeups a set of timer fires needs when each fire may be moved later within its
/// own window.
enum WakeupCoalescing {
    /// The fewest instants such that every window `[start, end]` contains one of them: the
    /// wakeups left when every fire happens at one of those instants. Greedy over windows
    /// sorted by end (an end closes the earliest-ending window and serves every window open
    /// at it), which is optimal for intervals. O(n log n).
    static func wakeups(_ windows: [(start: Nanoseconds, end: Nanoseconds)]) -> Int {
        let sorted = windows.sorted { $0.end != $1.end ? $0.end < $1.end : $0.start < $1.start }
        var count = 0
        var last: Nanoseconds?
        for window in sorted where last.map({ window.start > $0 }) ?? true {
            count += 1
            last = window.end
        }
        return count
    }
}
