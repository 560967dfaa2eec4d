import Algorithms
import DrainTrace

/// When the app was in the background over a run, from its `lifecycle` events.
///
/// A background stretch starts at the first `background` or `suspended` state after a
/// foreground one and lasts until the next foreground state (`active`, `inactive`,
/// `not_running`) or the end of the run. Rows are attributed by their position in the
/// time-sorted timeline, so an event recorded right after a transition at the same instant
/// belongs to the new state.
struct LifecycleTrack {
    struct Stretch {
        /// The first row in the background (the lifecycle event that started the stretch).
        var startRow: Int
        /// The row that ended the stretch, or the timeline's count when it lasts to the end.
        var endRow: Int
        var start: Nanoseconds
        var end: Nanoseconds

        var duration: Nanoseconds { end - start }
    }

    /// The number of `lifecycle` events.
    let changes: Int
    let stretches: [Stretch]
    /// `cumulative[i]`: background time in all stretches before stretch `i`.
    private let cumulative: [Nanoseconds]

    /// Reads the lifecycle events of `timeline`. O(n).
    init(_ timeline: Timeline) {
        var changes = 0
        var stretches: [Stretch] = []
        var open: Stretch?
        for row in 0..<timeline.count where timeline.kind[row] == .lifecycle {
            changes += 1
            guard let state = LifecycleState(rawValue: timeline.code[row]) else { continue }
            if state.isBackground {
                if open == nil {
                    open = Stretch(startRow: row, endRow: timeline.count, start: timeline.time[row], end: timeline.end)
                }
            } else if var stretch = open {
                stretch.endRow = row
                stretch.end = timeline.time[row]
                stretches.append(stretch)
                open = nil
            }
        }
        if let open { stretches.append(open) }
        var cumulative: [Nanoseconds] = []
        cumulative.reserveCapacity(stretches.count)
        var total: Nanoseconds = 0
        for stretch in stretches {
            cumulative.append(total)
            total += stretch.duration
        }
        self.changes = changes
        self.stretches = stretches
        self.cumulative = cumulative
    }

    /// Whether the run has any lifecycle event at all.
    var isEmpty: Bool { changes == 0 }

    /// The index of the background stretch that `row` falls in, or `nil` in the foreground
    /// (or before any lifecycle event). O(log stretches).
    func stretch(atRow row: Int) -> Int? {
        let index = stretches.partitioningIndex { $0.endRow > row }
        guard index < stretches.count, stretches[index].startRow <= row else { return nil }
        return index
    }

    func isBackground(atRow row: Int) -> Bool { stretch(atRow: row) != nil }

    /// Time spent in the background between two instants. O(log stretches).
    func backgroundTime(from start: Nanoseconds, to end: Nanoseconds) -> Nanoseconds {
        guard end > start else { return 0 }
        return backgroundTime(before: end) - backgroundTime(before: start)
    }

    /// Background time in `[0, instant)`.
    private func backgroundTime(before instant: Nanoseconds) -> Nanoseconds {
        let after = stretches.partitioningIndex { $0.start >= instant }
        guard after > 0 else { return 0 }
        let last = stretches[after - 1]
        return cumulative[after - 1] + min(last.end, instant) - last.start
    }
}
