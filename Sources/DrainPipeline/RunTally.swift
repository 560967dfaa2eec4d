import DrainModel
import DrainTrace

/// What the report's metrics, active duration and thread list need from the timeline,
/// gathered in one pass over its rows (O(n), one small dictionary per thread).
struct RunTally {
    /// Time in stretches longer than `Report.activityGapS` between consecutive events.
    var idle: Nanoseconds = 0
    /// Wakeups (`wakeup`, `timer`, `poll`: what the pricer charges a CPU wakeup for).
    var foregroundWakeups = 0
    var backgroundWakeups = 0
    /// Time spent in `background` or `suspended`, to the end of the run.
    var backgroundTime: Nanoseconds = 0
    /// Bytes sent and received per link; traffic without a stated link counts on the model's
    /// default link, as pricing does.
    var traffic: [LinkKind: (up: Int64, down: Int64)] = [:]
    var diskWrites = 0
    var diskBytesWritten: Int64 = 0
    /// Every memory sample, in time order.
    var memorySamples: [Double] = []
    /// CPU and GPU slices per thread.
    var threads: [StringID: (busy: Nanoseconds, energy: Double, slices: Int)] = [:]

    init(_ priced: PricedTimeline, defaultLink: LinkKind, activityGap: Nanoseconds) {
        let timeline = priced.timeline
        var previous: Nanoseconds = 0
        var inBackground = false
        var since: Nanoseconds = 0
        for row in 0..<timeline.count {
            let time = timeline.time[row]
            if time - previous > activityGap { idle += time - previous }
            previous = max(previous, time)
            switch timeline.kind[row] {
            case .wakeup, .timer, .poll:
                if inBackground { backgroundWakeups += 1 } else { foregroundWakeups += 1 }
            case .lifecycle:
                // As CPU-WAKEUPS counts: background and suspended are background; everything
                // else, and time before the first lifecycle event, is foreground.
                let now = LifecycleState(rawValue: timeline.code[row])?.isBackground ?? false
                guard now != inBackground else { continue }
                if inBackground { backgroundTime += time - since } else { since = time }
                inBackground = now
            case .net:
                var link = LinkKind(rawValue: timeline.code2[row]) ?? .unspecified
                if link == .unspecified { link = defaultLink }
                let bytes = max(0, timeline.amount[row])
                var total = traffic[link] ?? (0, 0)
                if timeline.code[row] == NetDirection.tx.rawValue { total.up += bytes } else { total.down += bytes }
                traffic[link] = total
            case .disk where timeline.code[row] == DiskOperation.write.rawValue:
                diskWrites += 1
                diskBytesWritten += max(0, timeline.amount[row])
            case .memory:
                memorySamples.append(Double(timeline.amount[row]))
            case .cpu, .gpu:
                var tally = threads[timeline.thread[row], default: (0, 0, 0)]
                tally.busy += max(0, timeline.duration[row])
                tally.energy += row < priced.eventEnergy.count ? priced.eventEnergy[row] : 0
                tally.slices += 1
                threads[timeline.thread[row]] = tally
            default:
                continue
            }
        }
        if inBackground { backgroundTime += max(0, priced.end - since) }
    }
}
