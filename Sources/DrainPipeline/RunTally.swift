import DrainModel
import DrainTrace

/// What the report's metrics, active duration and thread list need from the timeline,
/// gathered in one pass over its rows: O(n), no hashing per row (links and threads index
/// flat arrays).
struct RunTally {
    /// Wakeups (`wakeup`, `timer`, `poll`: what the pricer charges a CPU wakeup for).
    var foregroundWakeups = 0
    var backgroundWakeups = 0
    /// Time spent in `background` or `suspended`, to the end of the run, less the time gaps in it.
    var backgroundTime: Nanoseconds = 0
    /// Bytes sent and received per link (by `LinkKind` raw value); traffic without a stated
    /// link counts on the model's default link, as pricing does.
    private var bytesUp = [Int64](repeating: 0, count: LinkKind.allCases.count)
    private var bytesDown = [Int64](repeating: 0, count: LinkKind.allCases.count)
    /// Bytes of `net` events that stated no link (priced on the model's default).
    var assumedBytes: Int64 = 0
    var diskWrites = 0
    var diskBytesWritten: Int64 = 0
    /// Every memory sample, in time order.
    var memorySamples: [Double] = []
    /// CPU and GPU slices per thread, by the thread's `StringID`; made at the first slice, so a
    /// run without any (a capture, with a string per connection) keeps no table per string.
    private var busy: [Nanoseconds] = []
    private var energy: [Double] = []
    private var slices: [Int] = []

    init(_ priced: PricedTimeline, defaultLink: LinkKind) {
        let timeline = priced.timeline
        let gaps = timeline.gaps
        var inBackground = false
        var since: Nanoseconds = 0
        for row in 0..<timeline.count {
            let time = timeline.time[row]
            switch timeline.kind[row] {
            case .wakeup, .timer, .poll:
                if inBackground { backgroundWakeups += 1 } else { foregroundWakeups += 1 }
            case .lifecycle:
                // As CPU-WAKEUPS counts: background and suspended are background; everything
                // else, and time before the first lifecycle event, is foreground.
                let now = LifecycleState(rawValue: timeline.code[row])?.isBackground ?? false
                guard now != inBackground else { continue }
                if inBackground { backgroundTime += gaps.activeTime(from: since, to: time) } else { since = time }
                inBackground = now
            case .net:
                var link = LinkKind(rawValue: timeline.code2[row]) ?? .unspecified
                let bytes = max(0, timeline.amount[row])
                if link == .unspecified {
                    link = defaultLink
                    assumedBytes += bytes
                }
                if timeline.code[row] == NetDirection.tx.rawValue {
                    bytesUp[Int(link.rawValue)] += bytes
                } else {
                    bytesDown[Int(link.rawValue)] += bytes
                }
            case .disk where timeline.code[row] == DiskOperation.write.rawValue:
                diskWrites += 1
                diskBytesWritten += max(0, timeline.amount[row])
            case .memory:
                memorySamples.append(Double(timeline.amount[row]))
            case .cpu, .gpu:
                if slices.isEmpty {
                    busy = [Nanoseconds](repeating: 0, count: timeline.strings.count)
                    energy = [Double](repeating: 0, count: timeline.strings.count)
                    slices = [Int](repeating: 0, count: timeline.strings.count)
                }
                let thread = Int(timeline.thread[row])
                busy[thread] += max(0, timeline.duration[row])
                energy[thread] += row < priced.eventEnergy.count ? priced.eventEnergy[row] : 0
                slices[thread] += 1
            default:
                continue
            }
        }
        if inBackground { backgroundTime += gaps.activeTime(from: since, to: priced.end) }
    }

    /// Bytes sent and received on `link`.
    func traffic(_ link: LinkKind) -> (up: Int64, down: Int64) {
        (bytesUp[Int(link.rawValue)], bytesDown[Int(link.rawValue)])
    }

    /// Every thread that had a CPU or GPU slice: its id, busy time, energy and slice count.
    var threads: [(thread: StringID, busy: Nanoseconds, energy: Double, slices: Int)] {
        slices.indices.filter { slices[$0] > 0 }.map { (StringID($0), busy[$0], energy[$0], slices[$0]) }
    }
}
