import DrainTrace

/// How few wakeups a set of timer fires needs when each fire may be moved later within its
/// own window, counted as the windows come, in order of their starts: nothing is stored.
struct WakeupCoalescing {
    /// The fewest instants such that every window added contains one of them: the wakeups
    /// left when every fire happens at one of those instants.
    private(set) var wakeups = 0
    /// The earliest end among the windows the latest wakeup serves: where it is placed.
    private var placed: Nanoseconds = .min
    private var lastStart: Nanoseconds = .min

    /// Adds the window `[start, end]`. Greedy over windows by start: a window that starts
    /// after the latest wakeup's place needs a new wakeup; one that does not is served by it,
    /// which moves to the window's end if that is earlier. Optimal for intervals (the same
    /// count as closing the earliest-ending window first). O(1).
    ///
    /// - Precondition: `start` is not before the start of the window added before.
    mutating func add(start: Nanoseconds, end: Nanoseconds) {
        precondition(start >= lastStart, "windows are added in order of their starts")
        lastStart = start
        if wakeups == 0 || start > placed {
            wakeups += 1
            placed = end
        } else {
            placed = min(placed, end)
        }
    }
}
