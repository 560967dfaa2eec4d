import DrainGate

/// A baseline taken from the history, and how it was found.
public struct HistoryBaseline: Sendable, Equatable {
    /// The base branch's runs, or `nil` when no commit searched had any.
    public var baseline: Baseline?
    /// The merge base of `HEAD` and the base branch.
    public var mergeBase: String
    /// The commit whose runs were taken.
    public var commit: String?
    /// How many commits before the merge base that commit is (0: the merge base itself).
    public var commitsBack: Int
    /// How many commits were searched.
    public var searched: Int
    public var key: BaselineKey

    /// One sentence for the gate's outputs.
    public var summary: String {
        let mergeBaseShort = String(mergeBase.prefix(12))
        guard let commit, let baseline else {
            let before = searched > 1 ? " or the \(searched - 1) commit\(searched == 2 ? "" : "s") before it" : ""
            return "no baseline in the history: no run of \(key.scenario) (\(key.model)) on \(key.branch) at the merge base \(mergeBaseShort)\(before)"
        }
        let position =
            commitsBack == 0
            ? "the merge base \(mergeBaseShort)" : "\(commit.prefix(12)), \(commitsBack) commit\(commitsBack == 1 ? "" : "s") before the merge base \(mergeBaseShort)"
        return "baseline from the history: \(baseline.runs.count) run\(baseline.runs.count == 1 ? "" : "s") of \(key.branch) at \(position)"
    }
}

/// Finds the baseline of a gate in the history: the runs of the same project, scenario and
/// model on the base branch at the merge base of `HEAD` and that branch, or at its nearest
/// first-parent ancestor that has runs.
public enum BaselineFinder {
    /// How many commits back from the merge base are searched.
    public static let searchDepth = 1_000

    public static func find(
        in store: RunStore, project: String, scenario: String, model: String, baseBranch: String, git: GitWorkTree
    ) async throws(StoreError) -> HistoryBaseline {
        let key = BaselineKey(project: project, scenario: scenario, model: model, branch: baseBranch)
        let mergeBase = try mergeBase(baseBranch, git: git)
        let ancestors = git.lines(["rev-list", "--first-parent", "--max-count=\(searchDepth)", mergeBase])
        let commits = ancestors.isEmpty ? [mergeBase] : ancestors
        let counts = try await store.runCounts(key, commits: commits)
        guard let index = commits.firstIndex(where: { counts[$0] != nil }) else {
            return HistoryBaseline(baseline: nil, mergeBase: mergeBase, commit: nil, commitsBack: 0, searched: commits.count, key: key)
        }
        let baseline = try await store.baseline(key, commit: commits[index])
        return HistoryBaseline(
            baseline: baseline, mergeBase: mergeBase, commit: commits[index], commitsBack: index, searched: commits.count, key: key)
    }

    /// The merge base of `HEAD` and `branch` (or `origin/BRANCH` when there is no local
    /// branch of that name, as in a CI checkout).
    static func mergeBase(_ branch: String, git: GitWorkTree) throws(StoreError) -> String {
        guard !branch.hasPrefix("-") else { throw .usage("'\(branch)' is not a branch name") }
        guard git.output(["rev-parse", "--verify", "--quiet", "HEAD"]) != nil else {
            throw .usage("--base-branch needs a git work tree: \(git.directory) is not in one")
        }
        guard
            let reference = [branch, "origin/\(branch)"].first(where: {
                git.output(["rev-parse", "--verify", "--quiet", "\($0)^{commit}"]) != nil
            })
        else {
            throw .usage("the base branch '\(branch)' is not known to git here (fetch it first: git fetch origin \(branch))")
        }
        guard let base = git.output(["merge-base", "HEAD", reference]) else {
            throw .usage(
                "HEAD and \(reference) have no merge base in this clone; a shallow clone lacks the history (fetch it whole: fetch-depth: 0)")
        }
        return base
    }
}
