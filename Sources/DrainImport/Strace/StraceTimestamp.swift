import DrainTrace

/// The timestamp strace writes at the start of a line, in one of its styles.
struct StraceTimestamp {
    enum Style: Equatable {
        /// Seconds: since the Unix epoch with `-ttt` (`1795311592.347824`), or since the
        /// previous line with `-r` (`     0.000123`).
        case seconds
        /// `-t`/`-tt`: local time of day, `01:39:57` or `01:39:57.746505`, without a date.
        case timeOfDay
    }

    var style: Style
    /// Nanoseconds: since the epoch or the previous line, or since midnight.
    var value: Int64
    /// Whether the timestamp has no fraction of a second (`-t`, `--timestamps=unix,s`).
    var wholeSeconds: Bool

    /// The most digits a leading number followed by a space may have to be a pid (Linux
    /// pids stop at 4 194 304); longer ones are `--timestamps=unix,s` seconds.
    static let pidDigits = 7

    /// Parses a timestamp at `start`; returns it and the index after it, or nil when the
    /// bytes there are not a timestamp. A `-t -r` line's `(+  0.000123)` after the time of
    /// day is skipped.
    static func parse(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> (StraceTimestamp, Int)? {
        var index = start
        guard let (whole, wholeEnd) = digits(bytes, from: index, to: end, limit: 12) else { return nil }
        index = wholeEnd
        if index < end, bytes[index] == ASCII.colon {
            guard whole < 24, let (minutes, minutesEnd) = digits(bytes, from: index + 1, to: end, limit: 2), minutes < 60,
                minutesEnd < end, bytes[minutesEnd] == ASCII.colon,
                let (seconds, secondsEnd) = digits(bytes, from: minutesEnd + 1, to: end, limit: 2), seconds < 61
            else { return nil }
            index = secondsEnd
            var stamp = StraceTimestamp(
                style: .timeOfDay, value: ((whole * 60 + minutes) * 60 + seconds) * Clock.nanosecondsPerSecond,
                wholeSeconds: true)
            if let (fraction, fractionEnd) = self.fraction(bytes, at: index, to: end) {
                stamp.value += fraction
                stamp.wholeSeconds = false
                index = fractionEnd
            }
            return (stamp, skipRelativeSuffix(bytes, from: index, to: end))
        }
        // Seconds past what nanoseconds in an Int64 hold (year 2262) are no timestamp strace
        // wrote: the line is taken as one without a time, never as an overflow.
        let (nanoseconds, overflow) = whole.multipliedReportingOverflow(by: Clock.nanosecondsPerSecond)
        guard !overflow else { return nil }
        if let (fraction, fractionEnd) = self.fraction(bytes, at: index, to: end) {
            guard nanoseconds <= Int64.max - fraction else { return nil }
            return (StraceTimestamp(style: .seconds, value: nanoseconds + fraction, wholeSeconds: false), fractionEnd)
        }
        guard wholeEnd - start > pidDigits else { return nil }
        return (StraceTimestamp(style: .seconds, value: nanoseconds, wholeSeconds: true), index)
    }

    /// Up to `limit` decimal digits at `start` as a number, and the index after them.
    private static func digits(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, limit: Int) -> (Int64, Int)? {
        var index = start
        var value: Int64 = 0
        while index < end, index - start < limit, ASCII.isDigit(bytes[index]) {
            value = value * 10 + Int64(bytes[index] - ASCII.zero)
            index += 1
        }
        guard index > start, index == end || !ASCII.isDigit(bytes[index]) else { return nil }
        return (value, index)
    }

    /// `.` and 1 to 9 digits at `start`, as nanoseconds, and the index after them.
    private static func fraction(_ bytes: UnsafeRawBufferPointer, at start: Int, to end: Int) -> (Int64, Int)? {
        guard start < end, bytes[start] == ASCII.dot else { return nil }
        var index = start + 1
        var value: Int64 = 0
        while index < end, index - start <= 9, ASCII.isDigit(bytes[index]) {
            value = value * 10 + Int64(bytes[index] - ASCII.zero)
            index += 1
        }
        let count = index - start - 1
        guard count > 0, index == end || !ASCII.isDigit(bytes[index]) else { return nil }
        for _ in count..<9 { value *= 10 }
        return (value, index)
    }

    /// Skips ` (+     0.000123)`, the delta that `-t -r` adds after the time of day.
    private static func skipRelativeSuffix(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        guard StraceSyntax.matches(bytes, at: start, end: end, " (+") else { return start }
        var index = start + 3
        while index < end, bytes[index] != StraceSyntax.closeParenthesis { index += 1 }
        return index < end ? index + 1 : start
    }
}

/// Turns the timestamps of one strace output into times on the timeline's clock: time zero
/// is the first line's time.
///
/// Seconds are epoch times (`-ttt`) unless the first line's is exactly 0: strace's `-r`
/// measures each line from the previous one and starts at `0.000000`, an epoch time no
/// trace has. Relative times are summed (strace measures from the previous line, whichever
/// process wrote it). Time-of-day stamps carry no date, so a stamp more than 12 hours before
/// the previous one is taken to have crossed midnight.
struct StraceClock {
    enum Mode: Equatable {
        case epoch, timeOfDay, relative
    }

    private(set) var mode: Mode?
    private var origin: Int64 = 0
    private var previous: Int64 = 0
    private var dayOffset: Int64 = 0
    private var elapsed: Int64 = 0

    private static let day: Int64 = 86_400 * Clock.nanosecondsPerSecond

    /// The wall-clock time of time zero, nanoseconds since the epoch: known only for `-ttt`.
    var wallClockStart: Int64? { mode == .epoch ? origin : nil }

    /// The time of a line stamped `stamp`; nil when its style differs from the first line's.
    mutating func place(_ stamp: StraceTimestamp) -> Nanoseconds? {
        guard let mode else {
            switch stamp.style {
            case .seconds where stamp.value == 0:
                mode = .relative
            case .seconds:
                mode = .epoch
            case .timeOfDay:
                mode = .timeOfDay
            }
            origin = stamp.value
            previous = stamp.value
            return 0
        }
        switch (mode, stamp.style) {
        case (.epoch, .seconds):
            return stamp.value - origin
        case (.relative, .seconds):
            elapsed += stamp.value
            return elapsed
        case (.timeOfDay, .timeOfDay):
            var time = stamp.value + dayOffset
            if time < previous - Self.day / 2 {
                dayOffset += Self.day
                time += Self.day
            }
            previous = time
            return time - origin
        default:
            return nil
        }
    }
}
