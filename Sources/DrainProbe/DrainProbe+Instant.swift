extension DrainProbe {
    /// A moment on a trace's clock: nanoseconds since the trace's `t` = 0 on
    /// `CLOCK_MONOTONIC`. Get one from `now()` to mark where a slice began.
    public struct Instant: Sendable, Hashable, Comparable {
        /// Nanoseconds since the trace's start.
        public let nanosecondsSinceStart: Int64

        init(nanosecondsSinceStart: Int64) {
            self.nanosecondsSinceStart = nanosecondsSinceStart
        }

        /// The time from `self` to `later` (negative if `later` is earlier).
        public func duration(to later: Instant) -> Duration {
            .nanoseconds(later.nanosecondsSinceStart - nanosecondsSinceStart)
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.nanosecondsSinceStart < rhs.nanosecondsSinceStart
        }
    }
}
