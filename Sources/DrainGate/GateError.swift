import DrainPipeline

/// Why the gate could not judge, with its exit code: 64 usage, 65 bad budget, baseline or
/// report, 66 unreadable file. A gate never exits otherwise except 0 (pass) and 1 (fail).
public enum GateError: Error, Sendable, CustomStringConvertible {
    case usage(String)
    case budget(BudgetError)
    case unreadable(path: String, reason: String)
    case badBaseline(path: String, reason: String)
    /// A run or baseline priced with another model than the one pinned.
    case modelMismatch(String)
    /// A run could not be loaded or analysed.
    case run(AnalysisError)

    public var exitCode: Int32 {
        switch self {
        case .usage: 64
        case let .budget(error): error.exitCode
        case .unreadable: 66
        case .badBaseline, .modelMismatch: 65
        case let .run(error):
            switch error.exitCode {
            case 64, 66: error.exitCode
            default: 65
            }
        }
    }

    public var description: String {
        switch self {
        case let .usage(message): message
        case let .budget(error): error.description
        case let .unreadable(path, reason): "\(path): \(reason)"
        case let .badBaseline(path, reason): "\(path): \(reason)"
        case let .modelMismatch(message): message
        case let .run(error): error.description
        }
    }
}
