#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// The two clocks of a recording: the monotonic one paces the samples, the wall clock
/// stamps them, as strace's `-ttt` and libpcap stamp theirs.
enum MonotonicClock {
    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// CLOCK_REALTIME in nanoseconds since the Unix epoch.
    static func wallNow() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
#endif
