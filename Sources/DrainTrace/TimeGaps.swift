import Algorithms

/// One stretch of a run in which no input recorded anything for longer than the gap
/// threshold: from the end of the last event before it to the next event (or the run's end).
public struct TimeGap: Sendable, Equatable {
    public var start: Nanoseconds
    public var end: Nanoseconds

    public init(start: Nanoseconds, end: Nanoseconds) {
        self.start = start
        self.end = end
    }

    public var length: Nanoseconds { end - start }
}

/// The gaps of a run: the stretches without any event longer than `threshold`, which split
/// the run into active segments (`docs/reports.md`, *Time gaps and active duration*).
///
/// A merged capture whose time stamps jump from one year to another spans years, but was
/// observed only in its segments: energy rates, per-hour figures, timeline bins and interval
/// rules use the segments and leave the gaps out. Gaps are sorted and disjoint.
public struct TimeGaps: Sendable, Equatable {
    /// The default threshold: one hour without any event.
    public static let defaultThreshold: Nanoseconds = 3_600 * Clock.nanosecondsPerSecond

    /// A stretch longer than this (strictly) is a gap.
    public var threshold: Nanoseconds
    public private(set) var gaps: [TimeGap]
    /// Whether the first gap runs from time zero to the first event (an input declared a
    /// start long before it recorded anything).
    public private(set) var leading: Bool
    /// Whether the last gap runs from the last event to the run's end (an input declared an
    /// end long after it recorded anything).
    public private(set) var trailing: Bool

    public init(threshold: Nanoseconds = TimeGaps.defaultThreshold, gaps: [TimeGap] = [], leading: Bool = false, trailing: Bool = false) {
        self.threshold = threshold
        self.gaps = gaps
        self.leading = leading && !gaps.isEmpty
        self.trailing = trailing && !gaps.isEmpty
    }

    public var isEmpty: Bool { gaps.isEmpty }

    /// A length for people: seconds, and days, hours or minutes when it is that long
    /// (`126230400 s (1461.0 d)`). Locale-independent.
    public static func describe(_ length: Nanoseconds) -> String {
        let seconds = Clock.seconds(length)
        let text = Formatting.fixed(seconds, digits: seconds < 60 ? 3 : 0) + " s"
        switch seconds {
        case 86_400...: return text + " (\(Formatting.fixed(seconds / 86_400, digits: 1)) d)"
        case 3_600...: return text + " (\(Formatting.fixed(seconds / 3_600, digits: 1)) h)"
        case 60...: return text + " (\(Formatting.fixed(seconds / 60, digits: 1)) min)"
        default: return text
        }
    }

    /// Time in all gaps together.
    public var total: Nanoseconds { gaps.reduce(0) { $0 + $1.length } }

    /// Finds the gaps of a time-sorted timeline within `[0, end]` (`end` defaults to the
    /// timeline's): a stretch longer than `threshold` from time zero or the furthest end of
    /// the events so far (a CPU slice or coalesced packet run covers its duration) to the
    /// next event, or from the last event to `end`. A timeline of `parallelMinimumRows` rows or
    /// more is read in one piece per thread, each on its own, and the pieces joined in order
    /// (the result is the same for any thread count). O(n), no allocation per event.
    ///
    /// - Precondition: `timeline.isSorted` and `threshold > 0`.
    public static func detect(in timeline: Timeline, threshold: Nanoseconds, end: Nanoseconds? = nil) -> TimeGaps {
        let threads = ParallelWork.defaultThreads()
        let pieces = timeline.count >= parallelMinimumRows ? threads : 1
        return detect(in: timeline, threshold: threshold, end: end, pieces: pieces, threads: threads)
    }

    /// Rows from which `detect` reads a timeline on more than one thread: below it, starting
    /// a thread costs more than reading half the rows saves.
    static let parallelMinimumRows = 1 << 20

    /// `detect(in:threshold:end:)` reading the rows in `pieces` consecutive pieces on up to
    /// `threads` threads.
    static func detect(in timeline: Timeline, threshold: Nanoseconds, end: Nanoseconds?, pieces: Int, threads: Int) -> TimeGaps {
        precondition(threshold > 0, "the gap threshold must be positive")
        precondition(timeline.isSorted, "gaps are found on a time-sorted timeline")
        guard !timeline.isEmpty else { return TimeGaps(threshold: threshold) }
        let count = timeline.count
        let pieces = min(max(1, pieces), count)
        let ranges = (0..<pieces).map { count * $0 / pieces..<count * ($0 + 1) / pieces }
        // Each piece after the first starts from its own first event: the reach of the events
        // before it is known only when the pieces are joined.
        let scans = ParallelWork.map(pieces, threads: threads) { piece in
            let rows = ranges[piece]
            return scan(timeline, rows: rows, threshold: threshold, reach: piece == 0 ? 0 : timeline.time[rows.lowerBound])
        }
        var gaps: [TimeGap] = []
        var reach: Nanoseconds = 0
        for (piece, scanned) in scans.enumerated() {
            let first = timeline.time[ranges[piece].lowerBound]
            if piece > 0, first &- reach > threshold { gaps.append(TimeGap(start: reach, end: first)) }
            // A gap the piece found from an end short of the earlier events' reach starts at
            // that reach instead, and is no gap when that leaves it too short.
            for gap in scanned.gaps {
                if gap.start >= reach {
                    gaps.append(gap)
                } else if gap.end &- reach > threshold {
                    gaps.append(TimeGap(start: reach, end: gap.end))
                }
            }
            reach = max(reach, scanned.reach)
        }
        let leading = timeline.time[0] > threshold
        let runEnd = max(end ?? timeline.end, reach)
        let trailing = runEnd - reach > threshold
        if trailing { gaps.append(TimeGap(start: reach, end: runEnd)) }
        return TimeGaps(threshold: threshold, gaps: gaps, leading: leading, trailing: trailing)
    }

    /// The gaps within `rows` measured from `reach` and the events of `rows`, and the furthest
    /// end of those events (at least `reach`).
    private static func scan(
        _ timeline: Timeline, rows: Range<Int>, threshold: Nanoseconds, reach start: Nanoseconds
    ) -> (gaps: [TimeGap], reach: Nanoseconds) {
        var gaps: [TimeGap] = []
        var reach = start
        let duration = timeline.duration
        timeline.time.withUnsafeBufferPointer { time in
            timeline.kind.withUnsafeBufferPointer { kind in
                for row in rows {
                    let start = time[row]
                    if start &- reach > threshold { gaps.append(TimeGap(start: reach, end: start)) }
                    let finish = kind[row].durationIsSpan ? start &+ max(0, duration[row]) : start
                    if finish > reach { reach = finish }
                }
            }
        }
        return (gaps, reach)
    }

    /// The index of the active segment `time` lies in: how many gaps end at or before it.
    /// A time inside a gap belongs to the segment before the gap. O(log gaps).
    public func segment(of time: Nanoseconds) -> Int {
        gaps.partitioningIndex { $0.end > time }
    }

    /// Whether an interval from `start` to `end` spans a gap: the two lie in different segments.
    public func separates(_ start: Nanoseconds, _ end: Nanoseconds) -> Bool {
        !gaps.isEmpty && segment(of: start) != segment(of: end)
    }

    /// Time within `[start, end)` that falls in gaps. O(log gaps + gaps overlapped).
    public func overlap(from start: Nanoseconds, to end: Nanoseconds) -> Nanoseconds {
        guard end > start, !gaps.isEmpty else { return 0 }
        var total: Nanoseconds = 0
        var index = max(0, segment(of: start) - 1)
        while index < gaps.count, gaps[index].start < end {
            total += max(0, min(end, gaps[index].end) - max(start, gaps[index].start))
            index += 1
        }
        return total
    }

    /// Time within `[start, end)` outside the gaps: what an activity spanning them was observed for.
    public func activeTime(from start: Nanoseconds, to end: Nanoseconds) -> Nanoseconds {
        max(0, end - start) - overlap(from: start, to: end)
    }

    /// The active segments of a run from time zero to `end`, in time order: the stretches
    /// between the gaps. A segment may be an instant (one event between two gaps); a gap at
    /// the start or end of the run leaves no segment before or after it.
    public func segments(end: Nanoseconds) -> [(start: Nanoseconds, end: Nanoseconds)] {
        var result: [(start: Nanoseconds, end: Nanoseconds)] = []
        var cursor: Nanoseconds = 0
        for (index, gap) in gaps.enumerated() {
            if !(index == 0 && leading) { result.append((cursor, gap.start)) }
            cursor = gap.end
        }
        if !trailing || end > cursor { result.append((cursor, max(cursor, end))) }
        return result
    }
}

/// Times that went backwards in an input, in the order it was read (before sorting): how
/// many, and the largest step back.
public struct BackwardJumps: Sendable, Equatable {
    public var count: Int
    public var largest: Nanoseconds

    public init(count: Int = 0, largest: Nanoseconds = 0) {
        self.count = count
        self.largest = largest
    }

    /// Counts a step from `previous` back to `time` (nothing when `time >= previous`).
    @inlinable
    public mutating func note(from previous: Nanoseconds, to time: Nanoseconds) {
        guard time < previous else { return }
        count += 1
        let step = previous &- time
        if step > largest { largest = step }
    }

    /// Both inputs' jumps together.
    public mutating func add(_ other: BackwardJumps) {
        count += other.count
        largest = max(largest, other.largest)
    }
}
