import Foundation
import PostgresKit
import SQLiteKit

/// Turns a driver's error into a sentence for the user that never carries a password.
enum StoreFailure {
    /// What went wrong, from the server's own message when there is one; any occurrence of
    /// the store's password is replaced by `***` as a last safeguard.
    static func reason(_ error: any Error, location: StoreLocation) -> String {
        let text: String
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                text = "the server refused: \(message)\(state)"
            } else {
                switch error.code {
                case .serverClosedConnection, .uncleanShutdown:
                    text = "the server closed the connection"
                case .connectionError:
                    text = "the server cannot be reached" + (error.underlying.map { " (\($0))" } ?? "")
                case .sslUnsupported:
                    text = "the server does not support TLS, which sslmode=require asks for"
                case .authMechanismRequiresPassword:
                    text = "the server asks for a password: give it in the URL or PGPASSWORD"
                default:
                    text = "PostgreSQL error \(error.code)" + (error.underlying.map { " (\($0))" } ?? "")
                }
            }
        } else if let error = error as? SQLiteError {
            switch error.reason {
            case .busy, .busyTimeout:
                text = "the database stayed locked by another writer for \(StoreConnection.sqliteBusyTimeoutMilliseconds / 1000) s"
            default:
                text = error.message
            }
        } else {
            text = String(describing: error)
        }
        guard case let .postgres(server) = location, let password = server.password, !password.isEmpty else { return text }
        return text.replacingOccurrences(of: password, with: "***")
    }
}
