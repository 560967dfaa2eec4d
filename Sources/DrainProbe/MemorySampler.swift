#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DrainTraceWriter

/// A background thread that runs `tick` (record the memory footprint, flush the trace) at
/// a fixed cadence until stopped.
///
/// It sleeps in `poll` on a pipe, so `stop()` wakes it at once instead of waiting out the
/// interval. Ticks keep to a grid of `start + k × interval`; a tick that runs late does
/// not shift the later ones.
final class MemorySampler: @unchecked Sendable {
    private let interval: Int64
    private let tick: @Sendable () -> Void
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let lock = ProbeLock()
    // Guarded by `lock`:
    private var thread: pthread_t?

    /// Starts the thread; the first tick runs at once.
    ///
    /// - Throws: the `errno` of a failed `pipe` or `pthread_create`.
    init(intervalNanoseconds: Int64, tick: @escaping @Sendable () -> Void) throws(SystemError) {
        interval = max(1_000_000, intervalNanoseconds)
        self.tick = tick
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw SystemError(code: errno) }
        // Not inherited by programs the host app runs (Swift does not import `pipe2`).
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        wakeRead = descriptors[0]
        wakeWrite = descriptors[1]

        // The thread holds the sampler until it returns from `run()`.
        let context = Unmanaged.passRetained(self).toOpaque()
        #if os(Linux)
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { context in
            Unmanaged<MemorySampler>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        #else
        var handle: pthread_t?
        let result = pthread_create(&handle, nil, { context in
            Unmanaged<MemorySampler>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        #endif
        guard result == 0 else {
            Unmanaged<MemorySampler>.fromOpaque(context).release()
            throw SystemError(code: result)
        }
        thread = handle
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Stops the thread and waits for it to finish its current tick. Idempotent.
    func stop() {
        lock.withLock {
            guard let running = thread else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            pthread_join(running, nil)
            thread = nil
        }
    }

    private func run() {
        var next = TraceClock.monotonicNow()
        while true {
            tick()
            next += interval
            let now = TraceClock.monotonicNow()
            if next <= now { next = now + interval - (now - next) % interval }
            if waitForStop(until: next) { return }
        }
    }

    /// Sleeps until `deadline` (monotonic nanoseconds); `true` if `stop()` woke it first.
    private func waitForStop(until deadline: Int64) -> Bool {
        while true {
            let remaining = deadline - TraceClock.monotonicNow()
            if remaining <= 0 { return false }
            var descriptor = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: (remaining + 999_999) / 1_000_000)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }
}
