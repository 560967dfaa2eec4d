import DrainGate
import Foundation

/// Where run history is kept: an SQLite file or a PostgreSQL database, parsed from a store
/// URL (`sqlite:PATH`, `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=MODE]`).
///
/// The password never leaves this value except to the database driver: `description` is the
/// redacted URL, the only form that errors, logs and outputs use.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// The environment variable that stands for `--store URL`.
    public static let environmentVariable = "DRAIN_STORE"

    /// Parses a store URL; `environment` supplies `PGPASSWORD` when the URL has no password.
    ///
    /// - Throws: `StoreError.badURL` naming what is wrong (never echoing a password).
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StoreError) {
        if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            // `sqlite:///abs/path` and `sqlite://rel` are common spellings of the same thing.
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw .badURL("sqlite: needs a file path, as in sqlite:.drain/history.sqlite") }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(url: url, environment: environment))
        } else {
            throw .badURL("'\(StoreLocation.redact(url))' is not a store URL: use sqlite:PATH or postgres://USER@HOST:PORT/DB")
        }
    }

    /// The default store: `.drain/history.sqlite` at the root of the git work tree holding
    /// `directory`, or in `directory` itself outside a work tree.
    public static func defaultSQLite(in directory: String = FileManager.default.currentDirectoryPath) -> StoreLocation {
        let root = GitWorkTree(directory: directory).output(["rev-parse", "--show-toplevel"]) ?? directory
        return .sqlite(path: root + "/.drain/history.sqlite")
    }

    /// The store a command uses: `--store URL`; a bare `--store` means `DRAIN_STORE` when it
    /// is set, else the default SQLite file; no `--store` means `DRAIN_STORE` or, when
    /// `fallbackToDefault` (history commands), the default file, else no store.
    public static func resolve(
        option: String?, fallbackToDefault: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StoreError) -> StoreLocation? {
        let fromEnvironment = environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        switch option {
        case StoreArguments.defaultMarker?:
            if let fromEnvironment { return try StoreLocation(url: fromEnvironment, environment: environment) }
            return defaultSQLite()
        case let url?:
            return try StoreLocation(url: url, environment: environment)
        case nil:
            if let fromEnvironment { return try StoreLocation(url: fromEnvironment, environment: environment) }
            return fallbackToDefault ? defaultSQLite() : nil
        }
    }

    /// The URL with any password replaced by `***`.
    public var description: String {
        switch self {
        case let .sqlite(path): "sqlite:\(path)"
        case let .postgres(location): location.description
        }
    }

    /// The engine's name, for messages.
    public var engine: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    /// `text` with the password of any `scheme://user:password@` part replaced by `***`.
    static func redact(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else { return text }
        let userInfo = text[scheme.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}

/// A PostgreSQL store: server, database, user, password and TLS mode.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode` values that Drain supports.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, else plain; certificates are not verified.
        case prefer
        /// TLS or no connection; the certificate is not verified (libpq's meaning).
        case require
        /// TLS with the certificate verified against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    init(url: String, environment: [String: String]) throws(StoreError) {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw .badURL("'\(StoreLocation.redact(url))' is not a valid PostgreSQL URL: use postgres://USER@HOST:PORT/DB")
        }
        guard let user = components.user, !user.isEmpty else {
            throw .badURL("\(StoreLocation.redact(url)): the URL names no user (postgres://USER@HOST:PORT/DB)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else {
            throw .badURL("\(StoreLocation.redact(url)): the URL names no database (postgres://USER@HOST:PORT/DB)")
        }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .badURL("sslmode=\(item.value ?? "") is not supported: use one of \(modes)")
                }
                tls = mode
            default:
                throw .badURL("the store URL's parameter '\(item.name)' is not supported (only sslmode)")
            }
        }
        self.host = host
        port = components.port ?? 5432
        self.user = user
        password = components.password ?? environment["PGPASSWORD"]
        self.database = database
        self.tls = tls
    }

    /// The URL without its password.
    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let secret = password == nil ? "" : ":***"
        let query = tls == .prefer ? "" : "?sslmode=\(tls.rawValue)"
        return "postgres://\(user)\(secret)@\(hostPart):\(port)/\(database)\(query)"
    }
}
