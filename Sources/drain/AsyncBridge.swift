import Foundation

/// Runs the async part of a command (the run history's drivers are async) from a
/// synchronous `run()`, on the main thread, which waits.
///
/// The root command stays synchronous on purpose: an async root would park the main thread
/// in Dispatch's main loop, which waits with every signal unblocked, so that SIGTERM sent to
/// `drain record` would kill it instead of reaching the recorded command.
enum AsyncBridge {
    static func run(_ body: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task {
            do { try await body() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    /// The error the body threw, handed from its task to the waiting thread (the semaphore
    /// orders the write before the read).
    private final class Outcome: @unchecked Sendable {
        var error: (any Error)?
    }
}
