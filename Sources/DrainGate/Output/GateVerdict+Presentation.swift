/// Verdict-wide words the gate outputs share (see `GateCheck+Presentation.swift`).
extension GateVerdict {
    /// `1 failed, 2 warnings, 3 passed`: the count of each status present, in presentation
    /// order, or `no checks`.
    var tally: String {
        let parts = GateCheck.presentationOrder.compactMap { status -> String? in
            let count = checks.count(where: { $0.status == status })
            guard count > 0 else { return nil }
            return switch status {
            case .fail: "\(count) failed"
            case .warn: "\(count) warning\(count == 1 ? "" : "s")"
            case .inconclusive: "\(count) inconclusive"
            case .improvement: "\(count) improvement\(count == 1 ? "" : "s")"
            case .pass: "\(count) passed"
            case .skipped: "\(count) skipped"
            }
        }
        return parts.isEmpty ? "no checks" : parts.joined(separator: ", ")
    }

    /// `5 runs vs 5 baseline runs`, `1 run, no baseline`.
    var runCounts: String {
        let candidate = "\(runs) run\(runs == 1 ? "" : "s")"
        guard let baselineRuns else { return candidate + ", no baseline" }
        return candidate + " vs \(baselineRuns) baseline run\(baselineRuns == 1 ? "" : "s")"
    }

    /// `baseline 0123456789ab on main`, or `nil` when the baseline's revision is unknown.
    /// Untrusted: the branch name is the baseline file's.
    var baselineRevision: String? {
        guard let git = baselineGit else { return nil }
        return "baseline \(git.commit.prefix(12))" + (git.branch.map { " on \($0)" } ?? "")
    }

    /// The checks in presentation order: by status, then in the verdict's order within a
    /// status (most energy at stake first), whatever order `checks` came in.
    var presentedChecks: [GateCheck] {
        GateCheck.presentationOrder.flatMap { checks($0) }
    }
}
