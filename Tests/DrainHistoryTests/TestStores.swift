import DrainHistory
import DrainTestSupport
import Foundation
import Testing

/// The engines every store test runs on: SQLite always, PostgreSQL when `scripts/test` (or
/// the developer) started a throw-away cluster with `scripts/postgres start DIR` and set
/// `DRAIN_TEST_POSTGRES_DIR=DIR`. With `DRAIN_REQUIRE_POSTGRES=1` (as `scripts/test` sets),
/// a missing cluster fails `PostgresAvailabilityTests` instead of passing unnoticed.
enum TestEngine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    static let available: [TestEngine] = PostgresCluster.shared == nil ? [.sqlite] : [.sqlite, .postgres]

    var testDescription: String { rawValue }
}

/// A throw-away PostgreSQL cluster as `scripts/postgres start` describes it in settings.env.
struct PostgresCluster: Sendable {
    var directory: String
    var port: Int
    var owner: String
    var ownerPassword: String
    var reader: String
    var readerPassword: String
    var socket: String
    var bin: String
    var runAs: [String]

    static let shared: PostgresCluster? = ProcessInfo.processInfo.environment["DRAIN_TEST_POSTGRES_DIR"].flatMap { load(directory: $0) }

    static func load(directory: String) -> PostgresCluster? {
        guard let text = try? String(contentsOfFile: directory + "/settings.env", encoding: .utf8) else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        guard let port = values["PORT"].flatMap(Int.init), let owner = values["OWNER"], let ownerPassword = values["OWNER_PASSWORD"],
            let reader = values["READER"], let readerPassword = values["READER_PASSWORD"], let socket = values["SOCKET"], let bin = values["BIN"]
        else { return nil }
        return PostgresCluster(
            directory: directory, port: port, owner: owner, ownerPassword: ownerPassword, reader: reader, readerPassword: readerPassword,
            socket: socket, bin: bin, runAs: (values["RUN_AS"] ?? "").split(separator: " ").map(String.init))
    }

    /// `postgres://USER@127.0.0.1:PORT/DATABASE` (the password goes in PGPASSWORD).
    func url(database: String, user: String? = nil, query: String = "") -> String {
        "postgres://\(user ?? owner)@127.0.0.1:\(port)/\(database)\(query)"
    }

    /// Runs SQL as the cluster's superuser over its Unix socket.
    @discardableResult
    func superuser(_ sql: String, database: String = "postgres") throws -> String {
        try Self.command(runAs + ["\(bin)/psql", "-h", socket, "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql])
    }

    /// Runs `command` and returns its trimmed standard output; throws with its standard
    /// error when it fails.
    static func command(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestStoreError("\(command.joined(separator: " ")) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct TestStoreError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A new, empty store of one engine: an SQLite file in a temporary folder, or a new
/// database of the test cluster owned by its owner role. `remove()` deletes it.
struct TestStore: Sendable {
    var engine: TestEngine
    /// The URL without password.
    var url: String
    /// What a `drain` process needs to reach it (PGPASSWORD), and the test's git folder.
    var environment: [String: String?]
    var location: StoreLocation
    var folder: URL
    var database: String?
    var cluster: PostgresCluster?

    static func make(_ engine: TestEngine) throws -> TestStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drain-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch engine {
        case .sqlite:
            let url = "sqlite:" + folder.appendingPathComponent("history.sqlite").path
            return TestStore(
                engine: engine, url: url, environment: ["DRAIN_STORE": nil, "PGPASSWORD": nil], location: try StoreLocation(url: url),
                folder: folder, database: nil, cluster: nil)
        case .postgres:
            guard let cluster = PostgresCluster.shared else { throw TestStoreError("no PostgreSQL test cluster (DRAIN_TEST_POSTGRES_DIR)") }
            let database = "drain_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try cluster.superuser("CREATE DATABASE \(database) OWNER \(cluster.owner)")
            let url = cluster.url(database: database)
            return TestStore(
                engine: engine, url: url, environment: ["DRAIN_STORE": nil, "PGPASSWORD": cluster.ownerPassword],
                location: try StoreLocation(url: url, environment: ["PGPASSWORD": cluster.ownerPassword]), folder: folder,
                database: database, cluster: cluster)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
        if let cluster, let database { _ = try? cluster.superuser("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
    }

    /// Opens the store from the test process.
    func open(_ access: RunStore.Access = .write) async throws -> RunStore {
        try await RunStore.open(location, access: access)
    }

    /// Runs `body` with the store open, and closes it however `body` ends (PostgresNIO
    /// traps on a connection dropped unclosed).
    func with(_ access: RunStore.Access = .write, _ body: (RunStore) async throws -> Void) async throws {
        let store = try await open(access)
        do {
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Runs SQL on the store with a client independent of Drain's drivers: Python's sqlite3
    /// module for SQLite, psql as the superuser for PostgreSQL. Rows come back as `a|b` lines.
    func rawSQL(_ sql: String) throws -> String {
        switch engine {
        case .sqlite:
            return try PostgresCluster.runPython(
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); r=c.execute(sys.argv[2]).fetchall(); c.commit(); print('\\n'.join('|'.join(str(v) for v in row) for row in r))",
                arguments: [String(url.dropFirst("sqlite:".count)), sql])
        case .postgres:
            return try cluster!.superuser(sql, database: database!)
        }
    }
}

extension PostgresCluster {
    /// Runs a Python snippet (Python's sqlite3 module reads the SQLite stores independently
    /// of Drain's driver).
    static func runPython(_ code: String, arguments: [String]) throws -> String {
        try command(["python3", "-c", code] + arguments)
    }
}

@Suite struct PostgresAvailabilityTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DRAIN_REQUIRE_POSTGRES"] == "1"))
    func postgresIsAvailableWhenRequired() {
        #expect(PostgresCluster.shared != nil, "DRAIN_REQUIRE_POSTGRES=1 but no cluster at DRAIN_TEST_POSTGRES_DIR")
    }
}
