/// Hands out the ids that tell traces apart in a thread's table of staging buffers: unlike
/// an object's address, an id is never reused by a later trace.
enum WriterIdentifiers {
    private final class Counter: @unchecked Sendable {
        let lock = ProbeLock()
        // Guarded by `lock`:
        var last: UInt64 = 0
    }

    private static let counter = Counter()

    /// A new id, never 0.
    static func next() -> UInt64 {
        counter.lock.withLock {
            counter.last += 1
            return counter.last
        }
    }
}
