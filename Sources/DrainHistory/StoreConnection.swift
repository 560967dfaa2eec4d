import Foundation
import NIOPosix
import NIOSSL
import PostgresKit
import SQLKit
import SQLiteKit

/// One open connection to a store's engine, as SQLKit sees it.
struct StoreConnection: Sendable {
    var database: any SQLDatabase
    var engine: StoreEngine
    var close: @Sendable () async throws -> Void
    /// Registers an action to run once the connection is gone (closed by either side); `nil`
    /// where there is no connection to lose (SQLite). A statement in flight when the server
    /// dies may never be answered by the driver, so `StoreDeadline` also ends on this.
    var whenLost: StoreDeadline.LossSignal? = nil

    /// How long an SQLite writer waits for another's transaction before giving up.
    static let sqliteBusyTimeoutMilliseconds = 60_000

    /// Opens the SQLite file at `path` (created with its folder when opened to write).
    ///
    /// WAL journaling lets readers go on while one writer commits; `synchronous=NORMAL` keeps
    /// the database consistent through a killed process (only a power loss may undo the last
    /// commits).
    static func sqlite(path: String, access: RunStore.Access, location: StoreLocation) async throws(StoreError) -> StoreConnection {
        let store = location.description
        switch access {
        case .read:
            guard FileManager.default.fileExists(atPath: path) else { throw .missing(store: store) }
        case .write:
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .unavailable(store: store, reason: "cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: silentLogger)
        } catch {
            throw .unavailable(store: store, reason: "cannot open the database: \(StoreFailure.reason(error, location: location))")
        }
        let database = connection.sql()
        do {
            try await database.raw("PRAGMA busy_timeout = \(unsafeRaw: String(sqliteBusyTimeoutMilliseconds))").run()
            try await database.raw("PRAGMA foreign_keys = ON").run()
            if access == .write {
                try await database.raw("PRAGMA journal_mode = WAL").run()
                try await database.raw("PRAGMA synchronous = NORMAL").run()
            }
        } catch {
            try? await connection.close()
            throw .unavailable(store: store, reason: "not a usable SQLite database: \(StoreFailure.reason(error, location: location))")
        }
        return StoreConnection(database: database, engine: .sqlite, close: { try await connection.close() })
    }

    /// Connects to the PostgreSQL server of `server` and authenticates.
    static func postgres(_ server: PostgresLocation, location: StoreLocation) async throws(StoreError) -> StoreConnection {
        let store = location.description
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch server.tls {
            case .disable:
                tls = .disable
            case .prefer, .require:
                // libpq's prefer and require encrypt without verifying the certificate.
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                let context = try NIOSSLContext(configuration: configuration)
                tls = server.tls == .prefer ? .prefer(context) : .require(context)
            case .verifyFull:
                tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw .unavailable(store: store, reason: "cannot set up TLS: \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: server.host, port: server.port, username: server.user, password: server.password, database: server.database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = [("application_name", "drain")]
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: silentLogger)
        } catch {
            throw .unavailable(store: store, reason: "cannot connect: \(StoreFailure.reason(error, location: location))")
        }
        return StoreConnection(
            database: connection.sql(queryLogLevel: nil, logger: silentLogger), engine: .postgres, close: { try await connection.close() },
            whenLost: { action in connection.closeFuture.whenComplete { _ in action() } })
    }
}
