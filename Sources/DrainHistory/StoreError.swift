/// Why the run history could not be used, with the exit code `drain` ends with: 64 a bad
/// store URL or request, 65 a store this build cannot use (a newer schema, a damaged stored
/// report), 66 no such store or run, 69 the store could not be reached or refused the work.
///
/// Every message names the store by its redacted URL (`StoreLocation.description`).
public enum StoreError: Error, Sendable, CustomStringConvertible, Equatable {
    case badURL(String)
    case usage(String)
    /// The SQLite file to read does not exist.
    case missing(store: String)
    /// A run id or `BRANCH@COMMIT` that names no stored run.
    case noSuchRun(store: String, reference: String)
    /// The store's schema is newer than this build knows.
    case newerSchema(store: String, found: Int, known: Int)
    /// The store holds something this build cannot read.
    case damaged(store: String, reason: String)
    /// The server or file could not be reached, the connection was lost, or the engine
    /// refused the statement (permissions, a full disk).
    case unavailable(store: String, reason: String)

    public var exitCode: Int32 {
        switch self {
        case .badURL, .usage: 64
        case .newerSchema, .damaged: 65
        case .missing, .noSuchRun: 66
        case .unavailable: 69
        }
    }

    public var description: String {
        switch self {
        case let .badURL(message), let .usage(message): message
        case let .missing(store): "\(store): no run history here yet (runs are recorded by 'drain analyze --store' and 'drain gate --store')"
        case let .noSuchRun(store, reference): "\(store): no stored run \(reference)"
        case let .newerSchema(store, found, known):
            "\(store): the store's schema is version \(found), newer than this drain knows (\(known)); upgrade drain to use it"
        case let .damaged(store, reason): "\(store): \(reason)"
        case let .unavailable(store, reason): "\(store): \(reason)"
        }
    }
}
