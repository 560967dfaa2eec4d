#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clocks a trace is written on: `CLOCK_MONOTONIC` for `t` (never steps back when the
/// wall clock is set), `CLOCK_REALTIME` once, for the header's `start`.
enum MonotonicClock {
    /// Nanoseconds on `CLOCK_MONOTONIC`. A vDSO call on Linux, no system call.
    @inline(__always)
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// The monotonic time and the wall-clock time of one moment: the wall clock is read
    /// between two monotonic readings and paired with their midpoint, so the pairing is
    /// off by at most half the time the three reads take.
    static func pairedWithWallClock() -> (monotonic: Int64, wallSeconds: Int64, wallNanoseconds: Int64) {
        let before = now()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let after = now()
        return (before + (after - before) / 2, Int64(wall.tv_sec), Int64(wall.tv_nsec))
    }
}
