import Foundation

/// How long Drain waits for its store: a server that dies under a query can leave the
/// driver waiting for an answer that never comes, and a CI job must not hang on it.
public enum StoreDeadline {
    /// The environment variable that sets the limit, in seconds.
    public static let environmentVariable = "DRAIN_STORE_TIMEOUT"
    /// The limit when the environment sets none: one statement, one recorded run or one
    /// connection attempt never legitimately takes this long.
    public static let defaultSeconds = 60.0

    /// The limit for this process.
    static let seconds: Double = {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable], let value = Double(text), value > 0, value.isFinite else {
            return defaultSeconds
        }
        return value
    }()

    /// Registers an action to run once, when a store's connection is gone.
    typealias LossSignal = @Sendable (_ action: @escaping @Sendable () -> Void) -> Void

    /// `body`'s result; `StoreDeadline.Expired` after `seconds`; or `ConnectionLost` as soon as
    /// `whenLost` signals, if given: PostgresNIO can leave a statement in flight unanswered
    /// when the server closes the connection, and waiting out the deadline then would keep a
    /// CI job a minute for nothing. Abandoned work is cancelled (a driver stuck on a dead
    /// connection may not notice); the caller reports the failure and the process ends.
    static func run<T: Sendable>(
        seconds: Double = seconds, whenLost: LossSignal? = nil, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            let work = Task {
                do { once.resume(.success(try await body())) } catch { once.resume(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: .seconds(seconds))
                once.resume(.failure(Expired(seconds: seconds)))
                work.cancel()
            }
            once.onResume = { timer.cancel() }
            // A connection closed after `body` returned resumes nothing: `once` already ran.
            whenLost? {
                once.resume(.failure(ConnectionLost()))
                work.cancel()
            }
        }
    }

    /// The connection to the store closed while a statement was waiting for its answer.
    struct ConnectionLost: Error, CustomStringConvertible {
        var description: String { "the server closed the connection (it may have stopped or restarted)" }
    }

    /// The store did not answer in time.
    struct Expired: Error, CustomStringConvertible {
        var seconds: Double
        var description: String {
            let limit = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "no answer within \(limit) s (the server may have stopped; \(StoreDeadline.environmentVariable) sets the limit)"
        }
    }

    /// Resumes a continuation exactly once, from whichever task gets there first.
    private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, any Error>?
        private var resumed = false
        private var _onResume: (@Sendable () -> Void)?

        init(_ continuation: CheckedContinuation<T, any Error>) {
            self.continuation = continuation
        }

        /// Runs once the continuation is resumed (at once if it already was).
        var onResume: (@Sendable () -> Void)? {
            get { lock.withLock { _onResume } }
            set {
                let runNow = lock.withLock { () -> Bool in
                    _onResume = newValue
                    return resumed
                }
                if runNow { newValue?() }
            }
        }

        func resume(_ result: Result<T, any Error>) {
            let (continuation, action) = lock.withLock { () -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
                defer {
                    self.continuation = nil
                    resumed = true
                }
                return (self.continuation, self.continuation == nil ? nil : _onResume)
            }
            continuation?.resume(with: result)
            action?()
        }
    }
}
