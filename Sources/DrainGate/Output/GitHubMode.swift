/// Whether to write GitHub Actions workflow commands (`--github auto|always|never`).
public enum GitHubMode: String, Sendable, CaseIterable {
    /// Only when running in GitHub Actions.
    case auto
    case always
    case never

    /// Whether annotations are written in `environment` (the process's, in practice):
    /// `auto` looks for `GITHUB_ACTIONS=true`, which the Actions runner sets.
    public func isEnabled(environment: [String: String]) -> Bool {
        switch self {
        case .auto: environment["GITHUB_ACTIONS"] == "true"
        case .always: true
        case .never: false
        }
    }
}
