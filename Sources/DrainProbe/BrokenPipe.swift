#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a trace written to a pipe or socket (`/dev/stdout` piped into another program,
/// say) from killing the host app with `SIGPIPE` when the reader goes away: the write fails
/// with `EPIPE` instead, and the writer records the error.
enum BrokenPipe {
    /// Whether writes to `descriptor` can raise `SIGPIPE` (a FIFO or a socket).
    static func canSignal(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK
    }

    #if canImport(Darwin)
    /// Darwin: the descriptor itself can be told not to raise `SIGPIPE`.
    static func prepare(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
    }

    static func suppressingSignal(_ write: () -> Int32) -> Int32 {
        write()
    }
    #else
    static func prepare(_ descriptor: Int32) {}

    /// Linux has no per-descriptor switch: `SIGPIPE` is blocked on this thread around the
    /// write, and the one the write raised (directed at this thread) is taken off the
    /// pending set before the mask is restored. A `SIGPIPE` that was already pending for
    /// another reason is left alone.
    ///
    /// - Parameter write: the write; returns 0 or an `errno`.
    static func suppressingSignal(_ write: () -> Int32) -> Int32 {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        let alreadyPending = sigismember(&pending, SIGPIPE) == 1
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let result = write()
        if result == EPIPE && !alreadyPending {
            var noWait = timespec()
            while sigtimedwait(&pipeSignal, nil, &noWait) < 0 && errno == EINTR {}
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }
    #endif
}
