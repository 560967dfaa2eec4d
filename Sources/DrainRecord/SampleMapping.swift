#if os(Linux)
import DrainTrace
import DrainTraceWriter

/// Turns one interval's counter deltas into Drain trace events, in time order:
///
/// - each thread's CPU time → one `cpu` slice at the interval's start, `dur` = the CPU
///   time (the sample cannot say when in the interval it ran), `name` = the thread's name;
/// - each thread's voluntary context switches → that many `wakeup` events (reason
///   `switch`; the format has no count field), spread evenly over the interval;
/// - each process's `write_bytes` growth → `disk` writes at the interval's end: as many
///   as it made write calls (`syscw`), but at most one per 4 KiB page, the bytes split
///   evenly between them;
/// - the tree's resident set size → a `memory` event at the end, when it changed;
/// - each interface's byte counters → `net` `tx` and `rx` events at the end.
///
/// Only the signals in `signals` are written.
///
/// Every event of an interval is at or after its start and at or before its end, so
/// consecutive intervals stay in order.
public struct SampleMapping: Sendable {
    /// The signals written.
    public let signals: SampledSignals
    /// The footprint of the last `memory` event written.
    public private(set) var lastFootprint: Int64?
    private var nextWakeup: [Int64] = []

    /// The page size `write_bytes` counts in.
    static let pageSize: Int64 = 4096

    public init(signals: SampledSignals = .all) {
        self.signals = signals
    }

    /// Appends the lines of `sample` to `line`. O(e·t) for e wakeups over t threads, else O(n).
    mutating func write(_ sample: IntervalSample, into line: inout JSONLine) {
        if signals.contains(.cpu) {
            for activity in sample.threads where activity.cpu > 0 {
                line.cpu(at: sample.start, duration: activity.cpu, name: activity.name, thread: activity.thread)
            }
        }
        if signals.contains(.wakeups) { writeWakeups(sample, into: &line) }
        for writes in sample.writes where writes.bytes > 0 && signals.contains(.disk) {
            let pages = (writes.bytes + Self.pageSize - 1) / Self.pageSize
            let operations = max(1, min(writes.calls, pages))
            let share = writes.bytes / operations
            for index in 0..<operations {
                let bytes = index == 0 ? writes.bytes - share * (operations - 1) : share
                line.diskWrite(at: sample.end, bytes: bytes, thread: writes.pid)
            }
        }
        if signals.contains(.memory), let footprint = sample.residentBytes, footprint != lastFootprint {
            line.memory(at: sample.end, footprint: footprint)
            lastFootprint = footprint
        }
        for traffic in sample.interfaces where traffic.link != .loopback && signals.contains(.network) {
            if traffic.transmitted > 0 {
                line.net(at: sample.end, direction: .tx, bytes: traffic.transmitted, link: traffic.link, interface: traffic.name)
            }
            if traffic.received > 0 {
                line.net(at: sample.end, direction: .rx, bytes: traffic.received, link: traffic.link, interface: traffic.name)
            }
        }
    }

    /// The k-th of a thread's n wakeups goes at start + span·(2k+1)/(2n): evenly spaced,
    /// none on the interval's edges. Threads are merged by always writing the earliest next
    /// wakeup, so the lines stay in time order.
    private mutating func writeWakeups(_ sample: IntervalSample, into line: inout JSONLine) {
        let span = max(0, sample.end - sample.start)
        nextWakeup.removeAll(keepingCapacity: true)
        for _ in sample.threads { nextWakeup.append(0) }
        while true {
            var earliest = -1
            var earliestTime = Int64.max
            for (index, activity) in sample.threads.enumerated() where nextWakeup[index] < activity.wakeups {
                let time = sample.start + Self.offset(of: nextWakeup[index], count: activity.wakeups, span: span)
                if time < earliestTime {
                    earliest = index
                    earliestTime = time
                }
            }
            guard earliest >= 0 else { return }
            line.wakeup(at: earliestTime, reason: "switch", thread: sample.threads[earliest].thread)
            nextWakeup[earliest] += 1
        }
    }

    /// span·(2k+1)/(2n) without overflow for any span and count that fit in an `Int64`.
    static func offset(of index: Int64, count: Int64, span: Nanoseconds) -> Nanoseconds {
        let (high, low) = span.multipliedFullWidth(by: 2 * index + 1)
        return Int64(truncatingIfNeeded: (2 * count).dividingFullWidth((high, low)).quotient)
    }
}
#endif
