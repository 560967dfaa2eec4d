import DrainHistory
import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every stored run is whole: as many metric and finding rows as its row says, and a report
/// that inflates to its size with its SHA-256.
func expectEveryRunWhole(_ store: TestStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let broken = try store.rawSQL(
        """
        SELECT COUNT(*) FROM runs WHERE metric_count <> (SELECT COUNT(*) FROM run_metrics WHERE run_id = runs.id) \
        OR finding_count <> (SELECT COUNT(*) FROM run_findings WHERE run_id = runs.id)
        """)
    #expect(broken == "0", "runs with missing rows", sourceLocation: sourceLocation)
    try await store.with(.read) { opened in
        for run in try await opened.list(RunFilter(), limit: 100_000) {
            let bytes = try await opened.reportJSON(run.id)
            #expect(try await opened.run(run.id).reportBytes == bytes.count, sourceLocation: sourceLocation)
        }
    }
}

/// Starts `drain ARGUMENTS` without waiting; the store's password in its environment. Its
/// standard error goes to `errors` when given (read it with `errorText(_:)`), else nowhere.
func startDrain(_ arguments: [String], store: TestStore, errors: URL? = nil, environment extra: [String: String] = [:]) throws -> Process {
    let process = Process()
    process.executableURL = DrainCommand.executable
    process.arguments = arguments
    process.currentDirectoryURL = store.folder
    var environment = ProcessInfo.processInfo.environment
    for (name, value) in store.environment { environment[name] = value }
    for (name, value) in extra { environment[name] = value }
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    if let errors {
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)  // opening it below fails if this did
        process.standardError = try FileHandle(forWritingTo: errors)
    } else {
        process.standardError = FileHandle.nullDevice
    }
    try process.run()
    return process
}

/// The last 4,000 characters a process wrote to `errors`: what a failure message shows (a
/// sanitizer's report in a child, say).
func errorText(_ errors: URL) -> String {
    String((try? String(contentsOf: errors, encoding: .utf8))?.suffix(4_000) ?? "(no standard error)")
}

/// Waits for `process` on a dispatch thread, leaving the test's cooperative threads free
/// (several tests wait for processes at once).
func exitStatus(of process: Process) async -> Int32 {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            process.waitUntilExit()
            continuation.resume(returning: process.terminationStatus)
        }
    }
}

/// Runs a blocking `body` (a child process and its pipes) on a dispatch thread.
func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result(catching: body)) }
    }
}

/// Lets `process` run in steps of 2 ms, stopped between them, until the store holds more than
/// `count` runs, and leaves it stopped. However slowly the store answers the count (a loaded
/// machine, a sanitizer), the process cannot get far between two looks. A step doubles, up to
/// 64 ms, after every thousand steps that stored nothing: on a loaded machine under a
/// sanitizer a 2 ms step can pass without the process being scheduled at all, and 20,000 of
/// them once ended before its first run was in. Gives up when the process has ended (what it
/// said is the failure to report) or after ten minutes.
func stepUntilStored(moreThan count: Int, process: Process, watcher: RunStore) async throws {
    let deadline = ContinuousClock.now + .seconds(600)
    var step = 2
    var steps = 0
    while true {
        // A blocking sleep: a task's sleep ends only when the test pool next runs the task,
        // which beside the other tests can be seconds later, with the process running all along.
        kill(process.processIdentifier, SIGCONT)
        usleep(UInt32(step) * 1_000)
        kill(process.processIdentifier, SIGSTOP)
        steps += 1
        if steps % 1_000 == 0 { step = min(2 * step, 64) }
        guard process.isRunning, ContinuousClock.now < deadline else { return }
        if try await watcher.list(RunFilter(), limit: 10_000).count > count { return }
    }
}

/// Writes `count` distinct reports with 1,000 finding keys each: a run's transaction is then
/// long enough for a kill or a stopped server to land inside it.
func writeHeavyReports(_ count: Int, first: Int, prefix: String, in folder: URL) throws -> [String] {
    var template = fixtureReport()
    let finding = template.findings[0]
    template.findings = (0..<1_000).map { index in
        var copy = finding
        copy.key = FindingKey.key(rule: finding.rule, subject: "endpoint-\(index).example")
        return copy
    }
    return try (0..<count).map { index in
        var report = template
        report.metrics["energy.total_j"] = ReportMetric(value: Double(first + index), unit: "J")
        let url = folder.appendingPathComponent("\(prefix)-\(index).json")
        try (try ReportJSON.encode(report, pretty: false)).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

/// Concurrency and faults against the real engines: many writers at once, writers killed
/// mid-run, a server stopped under a gate, a read-only user, a wrong password.
@Suite struct HistoryFaultTests {
    @Test(arguments: TestEngine.available)
    func eightProcessesRecordFourHundredRunsAtOnce(engine: TestEngine) async throws {
        let store = try TestStore.make(engine)
        defer { store.remove() }
        let errors = (0..<8).map { store.folder.appendingPathComponent("w\($0).stderr") }
        // Eight writers take turns at SQLite's one write lock, each of 400 runs in its own
        // transaction: on a slow, busy machine a writer once waited more than the default 60 s
        // for an answer. The test is about what the writers store, not how fast.
        let writers = try (0..<8).map { writer in
            let reports = try writeReports(50, first: 1_000 * (writer + 1), prefix: "w\(writer)", in: store.folder)
            return try startDrain(
                ["gate"] + reports + ["--scenario", "concurrent", "--store", store.url, "-q"], store: store, errors: errors[writer],
                environment: ["DRAIN_STORE_TIMEOUT": "300"])
        }
        var statuses: [Int32] = []
        for writer in writers { statuses.append(await exitStatus(of: writer)) }
        #expect(statuses == Array(repeating: 0, count: 8))
        for (writer, status) in statuses.enumerated() where status != 0 {
            Issue.record("writer \(writer) exited \(status): \(errorText(errors[writer]))")
        }
        try await store.with(.read) { opened in
            let runs = try await opened.list(RunFilter(), limit: 1_000)
            #expect(runs.count == 400)
            #expect(Set(runs.map(\.id)).count == 400)
            #expect(Set(runs.compactMap(\.energyJ)).count == 400)
        }
        try await expectEveryRunWhole(store)
    }

    @Test(arguments: TestEngine.available)
    func aWriterKilledMidRunLeavesNoPartialRun(engine: TestEngine) async throws {
        let store = try TestStore.make(engine)
        defer { store.remove() }
        try await store.with(.write) { watcher in
            var stored = 0
            for attempt in 1...3 {
                let reports = try writeHeavyReports(40, first: attempt * 1_000, prefix: "kill\(attempt)", in: store.folder)
                // A writer that ends on its own before its first run is stored never reached
                // what this test is about (CI saw it twice, under load, before drain's standard
                // error was kept): it is started again, at most twice, with a warning that says
                // why it ended.
                for start in 1...3 {
                    // The store's deadline runs on the wall clock while the stepping below holds
                    // drain stopped: on a busy machine the default 60 s once ran out before the
                    // first run was in, and drain ended before it could be killed.
                    let errors = store.folder.appendingPathComponent("kill\(attempt)-\(start).stderr")
                    let writer = try startDrain(
                        ["gate"] + reports + ["--scenario", "killed", "--store", store.url, "-q"], store: store, errors: errors,
                        environment: ["DRAIN_STORE_TIMEOUT": "300"])
                    // Stopped at once, with no suspension before: it runs only in the steps below.
                    kill(writer.processIdentifier, SIGSTOP)
                    // Kill it as soon as its first run is in, while the others are being written.
                    let before = stored
                    try await stepUntilStored(moreThan: before, process: writer, watcher: watcher)
                    let endedBeforeTheKill = !writer.isRunning
                    kill(writer.processIdentifier, SIGKILL)
                    let status = await exitStatus(of: writer)
                    stored = try store.runCount()
                    let ending = endedBeforeTheKill ? "; drain ended before the kill, status \(status): \(errorText(errors))" : ""
                    if endedBeforeTheKill, stored == before, start < 3 {
                        Issue.record("attempt \(attempt), start \(start): no run stored\(ending)", severity: .warning)
                        continue
                    }
                    #expect(stored > before && stored < before + 40, "the kill did not land while runs were being recorded\(ending)")
                    break
                }
                try await expectEveryRunWhole(store)
            }
        }
    }

    @Test(.enabled(if: PostgresCluster.shared != nil))
    func aServerStoppedUnderAGateIsExit69WithNothingHalfWritten() async throws {
        // A private cluster: stopping the shared one would break the tests running beside.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drain-pg-\(UUID().uuidString)")
        let script = Repository.root.appendingPathComponent("scripts/postgres").path
        _ = try PostgresCluster.command(["bash", script, "start", directory.path])
        defer { _ = try? PostgresCluster.command(["bash", script, "remove", directory.path]) }
        let cluster = try #require(PostgresCluster.load(directory: directory.path))
        try cluster.superuser("CREATE DATABASE history OWNER \(cluster.owner)")
        let url = cluster.url(database: "history")
        var store = try TestStore.make(.sqlite)
        defer { store.remove() }
        store = TestStore(
            engine: .postgres, url: url, environment: ["PGPASSWORD": cluster.ownerPassword, "DRAIN_STORE": nil],
            location: try StoreLocation(url: url, environment: ["PGPASSWORD": cluster.ownerPassword]), folder: store.folder, database: "history",
            cluster: cluster)
        let reports = try writeHeavyReports(60, first: 0, prefix: "stopped", in: store.folder)
        let verdict = store.folder.appendingPathComponent("verdict.json").path
        let process = Process()
        process.executableURL = DrainCommand.executable
        process.arguments = ["gate"] + reports + ["--scenario", "stopped", "--store", url, "--json", verdict, "-q"]
        process.currentDirectoryURL = store.folder
        // The driver may never answer a query in flight when the server dies; drain notices
        // the closed connection instead of waiting out DRAIN_STORE_TIMEOUT, which is long here
        // so that ending before it shows that. The deadline's clock also runs while the
        // stepping below holds drain stopped, so that drain may get only a few milliseconds in
        // each tenth of a second: 5 s once expired before the first run was recorded, under a
        // sanitizer on a busy machine, and so did 30 s on a slow one.
        process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": cluster.ownerPassword, "DRAIN_STORE_TIMEOUT": "120"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        // Once its first run is stored, freeze drain, stop the server as a crash would, and
        // let drain go on.
        let watcher = try await store.open(.write)
        try process.run()
        kill(process.processIdentifier, SIGSTOP)
        try await stepUntilStored(moreThan: 0, process: process, watcher: watcher)
        await watcher.close()
        _ = try await offCooperativePool { try PostgresCluster.command(["bash", script, "kill", directory.path]) }
        kill(process.processIdentifier, SIGCONT)
        let resumed = ContinuousClock.now
        let message = try await offCooperativePool { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        #expect(await exitStatus(of: process) == 69, "\(message)")
        #expect(ContinuousClock.now - resumed < .seconds(60), "drain waited for its deadline: \(message)")
        #expect(message.contains("postgres://drain_owner:***@127.0.0.1:\(cluster.port)/history"), "\(message)")
        #expect(!message.contains(cluster.ownerPassword))
        #expect(!FileManager.default.fileExists(atPath: verdict))
        // Back up: what was stored is whole, and fewer than all the runs.
        _ = try PostgresCluster.command(["bash", script, "restart", directory.path])
        let stored = try store.runCount()
        #expect(stored > 0 && stored < 60)
        try await expectEveryRunWhole(store)
    }

    @Test(.enabled(if: PostgresCluster.shared != nil))
    func aReadOnlyUserListsShowsTrendsAndReadsBaselines() async throws {
        let store = try TestStore.make(.postgres)
        let repository = try GitFixture()
        defer {
            store.remove()
            repository.remove()
        }
        let cluster = try #require(store.cluster)
        try repository.commit("base")
        let reports = try writeReports(3, first: 50, prefix: "base", in: store.folder)
        #expect(try drain(["gate"] + reports + ["--scenario", "ro", "--store", store.url, "-q"], store: store, in: repository.folder).status == 0)
        try cluster.superuser(
            "GRANT CONNECT ON DATABASE \(store.database!) TO \(cluster.reader); GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(cluster.reader)",
            database: store.database!)
        let reader = cluster.url(database: store.database!, user: cluster.reader)
        let environment: [String: String?] = ["PGPASSWORD": cluster.readerPassword]
        for arguments in [
            ["history", "list"], ["history", "show", "1"], ["history", "export", "1", "--json", "-"],
            ["history", "trend", "--metric", "energy.total_j", "--scenario", "ro"],
        ] {
            let result = try drain(arguments + ["--store", reader], store: store, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        try repository.checkout(newBranch: "fork")
        try repository.commit("fork work")
        let candidate = try writeReports(1, first: 51, prefix: "fork", in: store.folder)
        let gate = try drain(
            ["gate"] + candidate + ["--scenario", "ro", "--store", reader, "--base-branch", "main", "--no-record", "--json", "-", "-q"], store: store,
            in: repository.folder, environment: environment)
        #expect(gate.status == 0, "\(gate.standardError)")
        #expect(gate.standardOutput.contains("\"baseline_runs\" : 3"))
        // Recording needs the right to write, and says so.
        let record = try drain(["analyze", HistoryCommandTests.sample, "--store", reader, "--scenario", "ro", "-q"], store: store, environment: environment)
        #expect(record.status == 69)
        #expect(record.standardError.contains("permission denied"), "\(record.standardError)")
        #expect(try store.rawSQL("SELECT COUNT(*) FROM runs") == "3")
    }

    @Test(.enabled(if: PostgresCluster.shared != nil))
    func aWrongPasswordIsRefusedWithoutShowingIt() throws {
        let store = try TestStore.make(.postgres)
        defer { store.remove() }
        let password = "wrong-\(UUID().uuidString)"
        let url = "postgres://\(store.cluster!.owner):\(password)@127.0.0.1:\(store.cluster!.port)/\(store.database!)"
        let result = try drain(["history", "list", "--store", url], store: store, environment: ["PGPASSWORD": nil])
        #expect(result.status == 69)
        #expect(result.standardError.contains("password authentication failed"), "\(result.standardError)")
        #expect(!(result.standardOutput + result.standardError).contains(password))
        // TLS: sslmode=require connects (the cluster has a self-signed certificate);
        // verify-full refuses that certificate.
        let required = try drain(["history", "list", "--store", store.url + "?sslmode=require"], store: store)
        #expect(required.status == 0, "\(required.standardError)")
        let verified = try drain(["history", "list", "--store", store.url + "?sslmode=verify-full"], store: store)
        #expect(verified.status == 69)
    }
}

extension TestStore {
    /// How many runs the store holds (read by an independent client).
    func runCount() throws -> Int {
        Int(try rawSQL("SELECT COUNT(*) FROM runs")) ?? -1
    }
}
