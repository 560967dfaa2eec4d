import DrainImport
import DrainModel
import DrainReport
import DrainRules

/// Why an analysis could not produce a report, with the process exit code the CLI uses.
public enum AnalysisError: Error, Sendable, CustomStringConvertible {
    case input(ImportError)
    case model(ModelError)
    case configuration(RuleConfigurationError)
    /// A saved report that cannot be loaded.
    case report(ReportLoadError)
    case usage(String)

    /// sysexits(3) codes: 64 usage, 65 bad input data, 66 unreadable input.
    public var exitCode: Int32 {
        switch self {
        case .usage: 64
        case let .input(error):
            if case .unreadable = error { 66 } else { 65 }
        case let .model(error):
            switch error.problem {
            case .unknownModel: 64
            case .unreadable: 66
            default: 65
            }
        case let .configuration(error): error.isUnreadable ? 66 : 65
        case let .report(error): error.exitCode
        }
    }

    public var description: String {
        switch self {
        case let .input(error): error.description
        case let .model(error): error.description
        case let .configuration(error): error.description
        case let .report(error): error.description
        case let .usage(message): message
        }
    }
}
