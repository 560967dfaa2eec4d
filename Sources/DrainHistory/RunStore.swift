import Foundation
import Logging
import SQLKit

/// The run history: one implementation over SQLite and PostgreSQL through SQLKit, each
/// statement written once with bound parameters (`docs/history.md#schema`).
///
/// A store is one connection; open it, use it from one task at a time, and `close()` it.
/// Every run is written in one transaction, so a run is stored whole or not at all.
public final class RunStore: Sendable {
    /// Whether the store is opened to read only (no migration, no write: a read-only
    /// database user is enough) or to record.
    public enum Access: Sendable {
        case read, write
    }

    public let location: StoreLocation
    let database: any SQLDatabase
    let engine: StoreEngine
    /// The schema version found on opening; 0 for an empty store opened to read.
    public let schemaVersion: Int
    private let closeConnection: @Sendable () async throws -> Void
    private let whenLost: StoreDeadline.LossSignal?

    init(
        location: StoreLocation, database: any SQLDatabase, engine: StoreEngine, schemaVersion: Int,
        close: @escaping @Sendable () async throws -> Void, whenLost: StoreDeadline.LossSignal? = nil
    ) {
        self.location = location
        self.database = database
        self.engine = engine
        self.schemaVersion = schemaVersion
        closeConnection = close
        self.whenLost = whenLost
    }

    /// Connects to the store at `location`. Opened to `.write`, the schema is created or
    /// migrated first (in one transaction, serialised between concurrent writers); opened to
    /// `.read`, nothing is written and a store without tables reads as empty.
    ///
    /// - Throws: `StoreError`: `.missing` for an SQLite file that does not exist (to read),
    ///   `.newerSchema`, `.unavailable` (the server cannot be reached or refused).
    public static func open(_ location: StoreLocation, access: Access) async throws(StoreError) -> RunStore {
        let connection: StoreConnection
        switch location {
        case let .sqlite(path): connection = try await StoreConnection.sqlite(path: path, access: access, location: location)
        case let .postgres(server): connection = try await StoreConnection.postgres(server, location: location)
        }
        let database = connection.database
        let engine = connection.engine
        let version: Int
        do {
            version = try await StoreDeadline.run(whenLost: connection.whenLost) {
                try await Migrations.prepare(database, engine: engine, access: access, location: location)
            }
        } catch {
            _ = try? await StoreDeadline.run(seconds: min(5, StoreDeadline.seconds)) { try await connection.close() }
            if let error = error as? StoreError { throw error }
            throw StoreError.unavailable(store: location.description, reason: "cannot prepare the schema: \(error)")
        }
        return RunStore(
            location: location, database: database, engine: engine, schemaVersion: version, close: connection.close,
            whenLost: connection.whenLost)
    }

    /// Closes the connection; the store cannot be used afterwards. Waits a few seconds at
    /// most: closing a connection to a server that died is best effort.
    public func close() async {
        let closeConnection = closeConnection
        _ = try? await StoreDeadline.run(seconds: min(5, StoreDeadline.seconds)) { try await closeConnection() }
    }

    /// Runs `body` in one transaction (`StoreEngine.transaction`).
    func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await engine.transaction(on: database, body)
    }

    /// `body`'s result, with any engine error turned into a `StoreError` naming this store,
    /// and a store that does not answer within `StoreDeadline.seconds`, or whose connection
    /// closes before it answers, reported as one.
    func perform<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) async throws(StoreError) -> T {
        do {
            return try await StoreDeadline.run(whenLost: whenLost, body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unavailable(store: location.description, reason: "\(what): \(StoreFailure.reason(error, location: location))")
        }
    }
}

/// The SQL engine behind a store, where a statement must differ between them.
enum StoreEngine: Sendable {
    case sqlite, postgres

    /// Runs `body` in one transaction on `database`: committed when it returns, rolled back
    /// when it throws. SQLite's `BEGIN IMMEDIATE` takes the write lock at once, so that
    /// concurrent writers wait for each other (up to the busy timeout) instead of failing at
    /// their first write.
    func transaction<T: Sendable>(on database: any SQLDatabase, _ body: () async throws -> T) async throws -> T {
        try await database.raw(self == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN").run()
        do {
            let result = try await body()
            try await database.raw("COMMIT").run()
            return result
        } catch {
            try? await database.raw("ROLLBACK").run()
            throw error
        }
    }
}

/// A silent logger: the drivers' logs would go to standard output and could carry a
/// connection string; Drain reports failures itself, redacted.
let silentLogger = Logger(label: "drain.history", factory: { _ in SwiftLogNoOpLogHandler() })
