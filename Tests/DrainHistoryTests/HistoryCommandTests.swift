import DrainGate
import DrainHistory
import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// Writes `count` distinct report JSONs (the fixture with energies `first`, `first + 1`, …)
/// into `folder`; returns their paths.
func writeReports(_ count: Int, first: Int, prefix: String, in folder: URL) throws -> [String] {
    try (0..<count).map { index in
        let url = folder.appendingPathComponent("\(prefix)-\(index).json")
        try (try ReportJSON.encode(fixtureReport(energy: Double(first + index)), pretty: true) + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

/// `drain` with the store's password in its environment, run in `directory`.
func drain(_ arguments: [String], store: TestStore, in directory: URL? = nil, environment: [String: String?] = [:]) throws -> CommandResult {
    try DrainCommand.run(arguments, in: directory ?? store.folder, environment: store.environment.merging(environment) { $1 })
}

/// The `drain` commands that record and read the history, on both engines.
@Suite struct HistoryCommandTests {
    static let sample = Repository.root.appendingPathComponent("samples/app-session.jsonl").path

    @Test(arguments: TestEngine.available)
    func analyzeRecordsAndHistoryReadsBack(engine: TestEngine) throws {
        let store = try TestStore.make(engine)
        defer { store.remove() }
        let saved = store.folder.appendingPathComponent("saved.json").path
        let analyze = try drain(["analyze", Self.sample, "--store", store.url, "--scenario", "session", "--json", saved, "-q"], store: store)
        #expect(analyze.status == 0, "\(analyze.standardError)")

        let list = try drain(["history", "list", "--store", store.url, "--json", "-"], store: store)
        #expect(list.status == 0, "\(list.standardError)")
        let runs = try JSONDecoder().decode([StoredRunSummary].self, from: Data(list.standardOutput.utf8))
        #expect(runs.count == 1)
        let id = try #require(runs.first?.id)
        #expect(runs.first?.scenario == "session")
        let report = try Report.load(path: saved)
        #expect(runs.first?.energyJ == report.metrics["energy.total_j"]?.value)

        // The stored report is the one --json wrote, byte for byte.
        let exported = store.folder.appendingPathComponent("exported.json").path
        #expect(try drain(["history", "export", String(id), "--json", exported, "--store", store.url], store: store).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: exported)) == Data(contentsOf: URL(fileURLWithPath: saved)))

        let show = try drain(["history", "show", String(id), "--store", store.url], store: store)
        #expect(show.status == 0)
        #expect(show.standardOutput.contains("run \(id): "))
        #expect(show.standardOutput.contains("energy.total_j"))

        // A stored run compares like a file.
        let compare = try drain(["compare", "store:\(id)", saved, "--store", store.url, "--json", "-", "-q"], store: store)
        #expect(compare.status == 0, "\(compare.standardError)")
        #expect(compare.standardOutput.contains("\"store:\(id)\""))

        // Recording the same run again stores nothing new.
        let again = try drain(["analyze", saved, "--store", store.url, "--scenario", "session"], store: store)
        #expect(again.standardError.contains("already stored as run \(id)"))
    }

    @Test(arguments: TestEngine.available)
    func drainStoreIsTheEnvironmentFormOfStore(engine: TestEngine) throws {
        let store = try TestStore.make(engine)
        defer { store.remove() }
        let environment: [String: String?] = ["DRAIN_STORE": store.url]
        // Without a scenario, $DRAIN_STORE records nothing.
        #expect(try drain(["analyze", Self.sample, "-q"], store: store, environment: environment).status == 0)
        #expect(try drain(["analyze", Self.sample, "-q", "--scenario", "env"], store: store, environment: environment).status == 0)
        let list = try drain(["history", "list", "--json", "-"], store: store, environment: environment)
        let runs = try JSONDecoder().decode([StoredRunSummary].self, from: Data(list.standardOutput.utf8))
        #expect(runs.map(\.scenario) == ["env"])
        // A bare --store is $DRAIN_STORE too.
        #expect(try drain(["history", "list", "--store", "--json", "-"], store: store, environment: environment).standardOutput == list.standardOutput)
    }

    @Test(arguments: TestEngine.available)
    func gateTakesItsBaselineFromTheBaseBranch(engine: TestEngine) throws {
        let store = try TestStore.make(engine)
        let repository = try GitFixture()
        defer {
            store.remove()
            repository.remove()
        }
        let base = try repository.commit("base")
        let baseRuns = try writeReports(5, first: 80, prefix: "base", in: store.folder)
        let onMain = try drain(["gate"] + baseRuns + ["--scenario", "sync", "--store", store.url, "-q"], store: store, in: repository.folder)
        #expect(onMain.status == 0, "\(onMain.standardError)")

        try repository.checkout(newBranch: "topic")
        try repository.commit("topic work")
        // 25 % more energy in every run: a confirmed regression against the five base runs.
        let topicRuns = try writeReports(5, first: 100, prefix: "topic", in: store.folder)
        let verdictPath = store.folder.appendingPathComponent("verdict.json").path
        let gate = try drain(
            ["gate"] + topicRuns + ["--scenario", "sync", "--store", store.url, "--base-branch", "main", "--json", verdictPath, "-q"], store: store,
            in: repository.folder)
        #expect(gate.status == 1, "\(gate.standardError)")
        let verdict = try JSONDecoder().decode(GateVerdict.self, from: Data(contentsOf: URL(fileURLWithPath: verdictPath)))
        #expect(verdict.baselineRuns == 5)
        #expect(verdict.baselineGit == GitRevision(commit: base, branch: "main"))
        #expect(verdict.baselineSource == "baseline from the history: 5 runs of main at the merge base \(base.prefix(12))")
        #expect(verdict.checks.contains { $0.id == "regression:energy.total_j" && $0.status == .fail })

        // The topic's runs were recorded on their branch.
        let list = try drain(["history", "list", "--branch", "topic", "--store", store.url, "--json", "-"], store: store)
        #expect(try JSONDecoder().decode([StoredRunSummary].self, from: Data(list.standardOutput.utf8)).count == 5)

        // A scenario without history: passes, and says so; fails with --require-baseline.
        let other = try drain(
            ["gate", topicRuns[0], "--scenario", "launch", "--store", store.url, "--base-branch", "main", "--json", "-", "-q"], store: store,
            in: repository.folder)
        #expect(other.status == 0)
        #expect(other.standardOutput.contains("no baseline in the history: no run of launch"))
        let required = try drain(
            ["gate", topicRuns[0], "--scenario", "launch", "--store", store.url, "--base-branch", "main", "--require-baseline", "-q"],
            store: store, in: repository.folder)
        #expect(required.status == 1)
    }

    @Test(arguments: TestEngine.available)
    func trendWritesAnEscapedPageAndCSV(engine: TestEngine) throws {
        let store = try TestStore.make(engine)
        let repository = try GitFixture()
        defer {
            store.remove()
            repository.remove()
        }
        let scenario = "trend" + ReportFixture.payload
        for (index, commit) in ["one", "two", "three"].enumerated() {
            try repository.commit(commit)
            let runs = try writeReports(2, first: 10 * (index + 1), prefix: commit, in: store.folder)
            #expect(try drain(["gate"] + runs + ["--scenario", scenario, "--store", store.url, "-q"], store: store, in: repository.folder).status == 0)
        }
        let page = store.folder.appendingPathComponent("trend.html").path
        let csv = store.folder.appendingPathComponent("trend.csv").path
        let trend = try drain(
            ["history", "trend", "--metric", "energy.total_j", "--scenario", scenario, "--html", page, "--csv", csv, "--store", store.url], store: store)
        #expect(trend.status == 0, "\(trend.standardError)")
        // Two runs per commit: medians 10.5, 20.5 and 30.5 J.
        let lines = trend.standardOutput.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.dropFirst(2).map { $0.contains("10.5 J") || $0.contains("20.5 J") || $0.contains("30.5 J") } == [true, true, true])
        #expect(!trend.standardOutput.contains("\u{1B}"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("<script>alert(1)"))
        #expect(!html.contains("<img src=x"))
        #expect(html.components(separatedBy: "<script").count == 3)  // the data block and the page's script only
        let records = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n")
        #expect(records.count == 7)
        let unknown = try drain(["history", "trend", "--metric", "energy.bogus", "--scenario", "x", "--store", store.url], store: store)
        #expect(unknown.status == 64)
    }

    @Test(arguments: TestEngine.available)
    func aNewerSchemaIsRefusedByEveryCommand(engine: TestEngine) throws {
        let store = try TestStore.make(engine)
        defer { store.remove() }
        #expect(try drain(["analyze", Self.sample, "--store", store.url, "--scenario", "s", "-q"], store: store).status == 0)
        _ = try store.rawSQL("INSERT INTO drain_schema_migrations (version, applied_at, generator) VALUES (7, 'later', 'drain 9')")
        for arguments in [["history", "list"], ["analyze", Self.sample, "--scenario", "s", "-q"]] {
            let result = try drain(arguments + ["--store", store.url], store: store)
            #expect(result.status == 65)
            #expect(result.standardError.contains("the store's schema is version 7, newer than this drain knows (1); upgrade drain to use it"))
        }
    }

    @Test func missingStoresAndBadURLsHaveTheirExitCodes() throws {
        let store = try TestStore.make(.sqlite)
        defer { store.remove() }
        let missing = try drain(["history", "list", "--store", store.url], store: store)
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("\(store.url): no run history here yet"))
        let bad = try drain(["history", "list", "--store", "redis://u:pw@h/0"], store: store)
        #expect(bad.status == 64)
        let noScenario = try drain(["analyze", Self.sample, "--store", store.url], store: store)
        #expect(noScenario.status == 64)
        // Nothing was created by the refused commands.
        #expect(!FileManager.default.fileExists(atPath: String(store.url.dropFirst("sqlite:".count))))
    }

    @Test func anUnreachableServerIsExit69AndNoPasswordIsShown() throws {
        let store = try TestStore.make(.sqlite)
        defer { store.remove() }
        // A loopback port nothing listens on.
        let password = "pw-\(UUID().uuidString)"
        let url = "postgres://drain:\(password)@127.0.0.1:9/history"
        for arguments in [["history", "list", "--store", url], ["analyze", Self.sample, "--store", url, "--scenario", "s", "-q"]] {
            let result = try drain(arguments, store: store)
            #expect(result.status == 69)
            #expect(result.standardError.contains("postgres://drain:***@127.0.0.1:9/history: cannot connect"))
            #expect(!(result.standardOutput + result.standardError).contains(password))
        }
    }
}
