import DrainPipeline
import DrainRender
import DrainReport
import DrainTrace
import Foundation

extension Baseline {
    /// Loads what `--baseline` names: baseline files written by `--save-baseline`, or report
    /// JSONs (each one run), or both; they must share one model. O(size of the files).
    ///
    /// - Throws: `GateError`: unreadable (66), not a baseline or report, another format or
    ///   schema version, models that differ (65).
    public static func load(paths: [String], generator: String) throws(GateError) -> Baseline {
        var baselines: [Baseline] = []
        var reports: [(path: String, report: Report)] = []
        for path in paths {
            let data: Data
            do {
                data = Data(try BoundedFileRead.read(path: path, limit: Report.maximumFileBytes))
            } catch {
                switch error {
                case let .unreadable(reason): throw .unreadable(path: path, reason: reason)
                case let .tooLarge(size, limit):
                    throw .badBaseline(
                        path: path,
                        reason: "the file has \(size) bytes; a baseline or report has at most \(BoundedFileRead.describe(limit: limit))")
                }
            }
            if let version = Self.formatVersion(data) {
                guard version == currentVersion else {
                    throw .badBaseline(path: path, reason: "a baseline of format \(version); this build reads format \(currentVersion)")
                }
                let baseline: Baseline
                do {
                    baseline = try JSONDecoder().decode(Baseline.self, from: data)
                } catch {
                    throw .badBaseline(path: path, reason: "not a valid baseline: \(error)")
                }
                guard baseline.reportSchemaVersion == Report.currentSchemaVersion else {
                    throw .badBaseline(
                        path: path,
                        reason: "its runs are reports of schema_version \(baseline.reportSchemaVersion); this build reads \(Report.currentSchemaVersion)")
                }
                baselines.append(baseline)
            } else {
                do {
                    reports.append((path, try Report.decode(data, path: path)))
                } catch {
                    throw .badBaseline(path: path, reason: error.description)
                }
            }
        }
        var runs = baselines.flatMap(\.runs)
        runs += reports.map { entry in
            var run = BaselineRun(report: entry.report)
            run.source = entry.path
            return run
        }
        let models = Set(baselines.map(\.model) + reports.map(\.report.model.name))
        guard models.count <= 1 else {
            throw .modelMismatch("the baseline's runs were priced with different models: \(models.sorted().joined(separator: ", "))")
        }
        guard !runs.isEmpty else { throw .badBaseline(path: paths.first ?? "", reason: "it holds no runs") }
        let first = baselines.first
        return Baseline(
            generator: first?.generator ?? generator, model: models.first ?? "", scenario: first?.scenario, git: first?.git,
            host: first?.host, runs: runs)
    }

    /// The `drain_baseline` version of JSON `data`, or `nil` when it is not a baseline.
    private static func formatVersion(_ data: Data) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["drain_baseline"] as? Int
    }

    /// The baseline as pretty JSON with sorted keys: the same runs give the same bytes.
    public func json() throws(ReportRenderError) -> String {
        try ReportJSON.document(self)
    }
}

extension HostInfo {
    /// This machine: the CPU model from `/proc/cpuinfo` (Linux) and the processor count.
    public static var current: HostInfo {
        var cpu = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HostInfo(cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount)
    }
}

extension GitRevision {
    /// The commit and branch of the git work tree at `directory`, or `nil` outside one (or
    /// without git). A detached HEAD has no branch.
    public static func current(in directory: String = FileManager.default.currentDirectoryPath) -> GitRevision? {
        let git = GitWorkTree(directory: directory)
        guard let commit = git.output(["rev-parse", "HEAD"]) else { return nil }
        let branch = git.output(["rev-parse", "--abbrev-ref", "HEAD"])
        return GitRevision(commit: commit, branch: branch == "HEAD" ? nil : branch)
    }
}
