import DrainGate
import Foundation

/// Where and when a run was made: what the history keeps beside its report, and what
/// selects a baseline (`docs/history.md#what-is-stored`).
public struct RunProvenance: Sendable, Equatable {
    /// The git remote (`github.com/owner/repo`, credentials removed), else the work tree's
    /// or directory's name.
    public var project: String
    public var branch: String?
    public var commit: String?
    /// The commit's parents (two or more for a merge).
    public var parents: [String]
    public var host: HostInfo?
    /// `drain` and its version.
    public var generator: String
    public var recordedAt: Date

    public init(
        project: String, branch: String?, commit: String?, parents: [String] = [], host: HostInfo?, generator: String,
        recordedAt: Date = Date()
    ) {
        self.project = project
        self.branch = branch
        self.commit = commit
        self.parents = parents
        self.host = host
        self.generator = generator
        self.recordedAt = recordedAt
    }

    /// The run being made here and now: git's view of `directory`, the CI's branch name
    /// (pull requests are checked out at a detached HEAD), and explicit overrides.
    ///
    /// The branch is `branch`, else `GITHUB_HEAD_REF` (a pull request's branch), else
    /// `GITHUB_REF_NAME`, else `CI_COMMIT_REF_NAME` (GitLab), else git's current branch.
    public static func current(
        project: String? = nil, branch: String? = nil, commit: String? = nil, generator: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        directory: String = FileManager.default.currentDirectoryPath
    ) -> RunProvenance {
        let git = GitWorkTree(directory: directory)
        let revision = GitRevision.current(in: directory)
        let ciBranch = ["GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"].lazy
            .compactMap { environment[$0] }.first { !$0.isEmpty }
        let commit = commit ?? revision?.commit
        let parents = commit.map { git.output(["rev-list", "--parents", "-n", "1", $0]) ?? "" }?
            .split(separator: " ").dropFirst().map(String.init) ?? []
        return RunProvenance(
            project: project ?? Self.project(git: git, directory: directory), branch: branch ?? ciBranch ?? revision?.branch,
            commit: commit, parents: parents, host: .current, generator: generator)
    }

    /// The project's name: its `origin` remote without scheme, credentials and `.git`, else
    /// the name of the work tree's (or the directory's) folder.
    static func project(git: GitWorkTree, directory: String) -> String {
        if let remote = git.output(["config", "--get", "remote.origin.url"]) { return normalizedRemote(remote) }
        let root = git.output(["rev-parse", "--show-toplevel"]) ?? directory
        return URL(fileURLWithPath: root).lastPathComponent
    }

    /// `https://token@github.com/owner/repo.git` and `git@github.com:owner/repo.git` →
    /// `github.com/owner/repo`: one name per repository however it was cloned, and no
    /// credential ever stored.
    static func normalizedRemote(_ remote: String) -> String {
        var text = Substring(remote)
        if let scheme = text.range(of: "://") { text = text[scheme.upperBound...] }
        if let at = text.firstIndex(of: "@"), !text[..<at].contains("/") { text = text[text.index(after: at)...] }
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
            let rest = text[text.index(after: colon)...]
            // `host:port/path` keeps no port; `host:owner/repo` (scp form) becomes `host/owner/repo`.
            let path = rest.drop { $0.isNumber }
            text = text[..<colon] + (path.hasPrefix("/") ? path : "/" + rest)
        }
        if text.hasSuffix(".git") { text = text.dropLast(4) }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
