#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DrainTraceWriter

/// One thread's event lines for one trace, in time order, under a lock of its own that
/// only the writer's merge ever contends for.
///
/// Its thread appends here (reading the clock under this lock, so its lines are in time
/// order and a merge that started earlier cannot miss one); the writer takes the lines up
/// to a cut-off time when it merges the threads' lines into the file.
final class StagingBuffer: @unchecked Sendable {
    /// What `append` did with a line.
    enum Outcome {
        case appended
        /// The trace is closed or failed: the line was counted as dropped.
        case dropped
        /// The line does not fit; the writer should merge the lines up to `olderHalf`
        /// (the end of this buffer's older half) and try again.
        case full(olderHalf: Int64)
    }

    let capacity: Int
    /// `CLOCK_MONOTONIC` nanoseconds at `t` = 0.
    private let origin: Int64
    private let lock = ProbeLock()
    // Guarded by `lock`:
    private var lines: UnsafeMutablePointer<UInt8>
    private var used = 0
    /// The time of the last line at the end of `lines` (the latest so far).
    private var latest: Int64 = 0
    private var dropped = 0
    private var stopped = false
    private var retired = false
    // Guarded by the writer's lock: the lines `take(upTo:)` took, at its front.
    private(set) var taken: UnsafeMutablePointer<UInt8>

    init(capacity: Int, origin: Int64) {
        self.capacity = capacity
        self.origin = origin
        lines = .allocate(capacity: capacity)
        taken = .allocate(capacity: capacity)
    }

    deinit {
        lines.deallocate()
        taken.deallocate()
    }

    /// Appends `{"t":` + the time + `body` in time order, where `body` starts with the comma
    /// before the event's next field and ends with `}\n`; the caller makes sure the line is
    /// at most `capacity` bytes.
    ///
    /// - Parameter time: the event's time; `nil` reads the clock under the lock. A time
    ///   earlier than the latest line (a slice, written when it ends) goes in among the
    ///   buffered lines at its place.
    ///
    /// Cost: one uncontended lock, one clock read and a copy of the line; O(bytes moved)
    /// when the line goes in before others.
    @inline(__always)
    func append(_ body: UnsafeRawBufferPointer, at time: Int64?) -> Outcome {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONFormatter.timePrefixBound) { prefixMemory in
            lock.lock()
            defer { lock.unlock() }
            guard !stopped else {
                dropped += 1
                return .dropped
            }
            let eventTime = time.map { max(0, $0) } ?? max(0, TraceClock.monotonicNow() - origin)
            var prefix = JSONFormatter(prefixMemory.baseAddress!)
            prefix.timePrefix(eventTime)
            let length = prefix.count + body.count
            guard used + length <= capacity else { return .full(olderHalf: olderHalfEnd()) }
            var position = used
            if eventTime < latest {
                position = insertionPoint(for: eventTime)
                memmove(lines + position + length, lines + position, used - position)
            } else {
                latest = eventTime
            }
            var line = JSONFormatter(lines + position)
            line.raw(prefix.written)
            line.raw(body)
            used += length
            return .appended
        }
    }

    /// Moves the lines whose time is at most `cutoff` to the front of `taken` and returns
    /// their byte count; the later lines stay. The caller holds the writer's lock.
    ///
    /// Cost: a binary search over the lines and a copy of the bytes that stay; the buffers
    /// then swap roles.
    func take(upTo cutoff: Int64) -> Int {
        lock.withLock {
            let split = searchInsertionPoint(for: cutoff)
            guard split > 0 else { return 0 }
            memcpy(taken, lines + split, used - split)
            swap(&lines, &taken)
            used -= split
            return split
        }
    }

    /// Drops the buffered lines (counting them) and every later one: the trace was closed
    /// or a write failed.
    func stop() {
        lock.withLock {
            dropped += TraceLine.count(in: UnsafeRawBufferPointer(start: lines, count: used))
            used = 0
            stopped = true
        }
    }

    /// Marks the buffer as its thread's last: the thread exited, so once empty the writer
    /// can forget it.
    func retire() {
        lock.withLock { retired = true }
    }

    var isStopped: Bool { lock.withLock { stopped } }

    /// Whether the thread exited and every line was taken.
    var isRetiredAndEmpty: Bool { lock.withLock { retired && used == 0 } }

    /// Lines dropped after the trace was closed or failed.
    var droppedLines: Int { lock.withLock { dropped } }

    /// A cut-off that takes the lines in the older half of the buffer: just before the
    /// first line that starts in the newer half, so a slice that began within the newer
    /// half still goes in at its place.
    private func olderHalfEnd() -> Int64 {
        guard used > 1 else { return latest }
        var split = used / 2
        while split < used && lines[split - 1] != UInt8(ascii: "\n") { split += 1 }
        return split < used ? TraceLine.time(at: lines + split) - 1 : latest
    }

    /// The same offset as `insertionPoint(for:)`, found by bisecting the bytes: each step
    /// reads the time of the line around the middle. O(log lines × line length), for
    /// cut-offs far from the end.
    private func searchInsertionPoint(for time: Int64) -> Int {
        if time >= latest { return used }
        // Lines before `low` are at most `time`; the line at `high` (if any) is later.
        var low = 0
        var high = used
        while low < high {
            var middle = low + (high - low) / 2
            while middle > low && lines[middle - 1] != UInt8(ascii: "\n") { middle -= 1 }
            guard TraceLine.time(at: lines + middle) <= time else {
                high = middle
                continue
            }
            var end = middle
            while lines[end] != UInt8(ascii: "\n") { end += 1 }
            low = end + 1
        }
        return low
    }

    /// The offset after the last buffered line whose time is at most `time` (0 if none is):
    /// buffered lines are in time order, so scanning back from the end stops at the first
    /// line not later than `time`.
    private func insertionPoint(for time: Int64) -> Int {
        if time >= latest { return used }
        var end = used
        while end > 0 {
            var start = end - 1
            while start > 0 && lines[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            if TraceLine.time(at: lines + start) <= time { return end }
            end = start
        }
        return 0
    }
}
