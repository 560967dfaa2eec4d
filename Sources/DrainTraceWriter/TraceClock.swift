#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The clocks a trace is written on: `CLOCK_MONOTONIC` for `t` (never steps back when the
/// wall clock is set), `CLOCK_REALTIME` for the header's `start`.
public enum TraceClock {
    /// Nanoseconds on `CLOCK_MONOTONIC`. A vDSO call on Linux, no system call.
    @inlinable @inline(__always)
    public static func monotonicNow() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Nanoseconds since the Unix epoch on `CLOCK_REALTIME`.
    public static func wallNow() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// The monotonic time and the wall-clock time (nanoseconds since the epoch) of one
    /// moment: the wall clock is read between two monotonic readings and paired with their
    /// midpoint, so the pairing is off by at most half the time the three reads take.
    public static func pairedWithWallClock() -> (monotonic: Int64, wall: Int64) {
        let before = monotonicNow()
        let wall = wallNow()
        let after = monotonicNow()
        return (before + (after - before) / 2, wall)
    }
}
