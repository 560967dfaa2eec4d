import DrainPipeline
import DrainRender
import DrainReport
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
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw .unreadable(path: path, reason: FileReadFailure.reason(error))
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
        try ReportJSON.encode(self, pretty: true) + "\n"
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
        guard let commit = git(["rev-parse", "HEAD"], in: directory) else { return nil }
        let branch = git(["rev-parse", "--abbrev-ref", "HEAD"], in: directory)
        return GitRevision(commit: commit, branch: branch == "HEAD" ? nil : branch)
    }

    private static func git(_ arguments: [String], in directory: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
