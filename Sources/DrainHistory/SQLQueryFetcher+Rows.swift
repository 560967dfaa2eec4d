import NIOConcurrencyHelpers
import SQLKit

extension SQLQueryFetcher {
    /// Every row the query returns, in order.
    ///
    /// SQLKit's own `all()` and `first()` collect rows into a variable that the database's thread
    /// writes and the awaiting task reads afterwards. The `await` orders the two, but when the
    /// database finishes before the task has suspended the order runs through the concurrency
    /// runtime where ThreadSanitizer cannot see it, and the suite under TSan reported a race.
    /// Collecting under a lock states the order in a way every checker sees.
    func rows() async throws -> [any SQLRow] {
        let collected = NIOLockedValueBox([any SQLRow]())
        try await run { row in collected.withLockedValue { $0.append(row) } }
        return collected.withLockedValue { $0 }
    }

    /// The first row the query returns, if any; later rows are read and dropped.
    func firstRow() async throws -> (any SQLRow)? {
        let collected = NIOLockedValueBox((any SQLRow)?.none)
        try await run { row in collected.withLockedValue { if $0 == nil { $0 = row } } }
        return collected.withLockedValue { $0 }
    }
}
