#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import DrainTraceWriter

/// Blocks SIGCHLD, SIGINT and SIGTERM in the recorder and receives them synchronously with
/// `sigtimedwait`, which is also how the sampler sleeps between samples: it wakes at the
/// next sample time, or at once when the command exits.
///
/// SIGINT and SIGTERM sent to the recorder by a process (`kill`, a supervisor) are
/// forwarded to the command; the same signals from the terminal (Ctrl-C) already reach the
/// command, which is in the same foreground process group, and are not sent twice. The
/// recorder itself keeps running until the command exits, so the trace is complete.
struct SignalGate {
    static let handled: [Int32] = [SIGCHLD, SIGINT, SIGTERM]

    private var blocked = sigset_t()
    private var previous = sigset_t()

    /// Blocks the signals in the calling thread (and the threads it starts later).
    init() {
        sigemptyset(&blocked)
        for signal in Self.handled { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    }

    /// Waits until `deadline` (CLOCK_MONOTONIC nanoseconds) or until SIGCHLD arrives,
    /// forwarding SIGINT and SIGTERM to `child` meanwhile. Returns true when SIGCHLD arrived.
    func wait(until deadline: Int64, forwardingTo child: ChildProcess) -> Bool {
        while true {
            let remaining = deadline - TraceClock.monotonicNow()
            guard remaining > 0 else { return false }
            var timeout = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            var info = siginfo_t()
            var set = blocked
            let signal = sigtimedwait(&set, &info, &timeout)
            if signal == SIGCHLD { return true }
            // SI_USER, SI_QUEUE, SI_TKILL…: sent by a process. The kernel's own (SI_KERNEL,
            // the terminal's Ctrl-C) is positive.
            if signal == SIGINT || signal == SIGTERM, info.si_code <= 0 { child.send(signal) }
        }
    }

    /// Discards the signals still pending and restores the previous mask.
    func restore() {
        var none = timespec(tv_sec: 0, tv_nsec: 0)
        var info = siginfo_t()
        var set = blocked
        while sigtimedwait(&set, &info, &none) > 0 {}
        var previous = self.previous
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
#endif
