import DrainGate
import DrainHistory
import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// The fixture report with `energy.total_j` set to `energy`: a different report (and so a
/// different stored run) per value.
func fixtureReport(energy: Double = 86.4) -> Report {
    var report = ReportFixture.realistic
    report.metrics["energy.total_j"] = ReportMetric(value: energy, unit: "J", perHour: energy * 30)
    return report
}

func provenance(project: String = "github.com/acme/app", branch: String? = "main", commit: String? = nil, at date: Date = Date())
    -> RunProvenance
{
    RunProvenance(
        project: project, branch: branch, commit: commit, parents: [], host: HostInfo(cpu: "Test CPU", cores: 2), generator: "drain test",
        recordedAt: date)
}

/// Every test here runs on SQLite and on PostgreSQL (`TestEngine.available`).
@Suite struct RunStoreTests {
    @Test(arguments: TestEngine.available)
    func recordsARunWholeAndReadsItBack(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            let report = fixtureReport()
            let recorded = try await store.record(report, scenario: "cold-start", provenance: provenance(commit: "a1b2c3d4e5"))
            #expect(recorded.isNew)

            let run = try await store.run(recorded.id)
            #expect(run.summary.scenario == "cold-start")
            #expect(run.summary.branch == "main")
            #expect(run.summary.commit == "a1b2c3d4e5")
            #expect(run.summary.model == report.model.name)
            #expect(run.summary.energyJ == 86.4)
            #expect(run.host == HostInfo(cpu: "Test CPU", cores: 2))
            // Every metric the gate knows in the report, with its value, as rows.
            let expected = MetricCatalog.values(in: report)
            #expect(Dictionary(uniqueKeysWithValues: run.metrics.map { ($0.name, $0.value) }) == expected)
            #expect(run.metrics.first { $0.name == "energy.total_j" }?.unit == "J")
            // One row per finding key, with the worst severity and the summed energy.
            let keys = Set(report.findings.map(\.key))
            #expect(Set(run.findings.map(\.key)) == keys)
            for finding in run.findings {
                let same = report.findings.filter { $0.key == finding.key }
                #expect(finding.occurrences == same.count)
                #expect(finding.severity == same.map(\.severity).max())
                let energies = same.compactMap(\.energyJ)
                #expect(finding.energyJ == (energies.isEmpty ? nil : energies.reduce(0, +)))
            }
            // The report as `drain analyze --json` writes it, byte for byte, and loadable.
            let json = try await store.reportJSON(recorded.id)
            #expect(String(decoding: json, as: UTF8.self) == (try ReportJSON.encode(report, pretty: true)) + "\n")
            #expect(run.reportBytes == json.count)
            #expect(try await store.report(recorded.id) == report)
        }
    }

    @Test(arguments: TestEngine.available)
    func theSameReportIsStoredOnce(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            let first = try await store.record(fixtureReport(), scenario: "sync", provenance: provenance())
            let again = try await store.record(fixtureReport(), scenario: "sync", provenance: provenance())
            let other = try await store.record(fixtureReport(), scenario: "other", provenance: provenance())
            // The same report at another commit (a deterministic input analysed again) is another run.
            let nextCommit = try await store.record(fixtureReport(), scenario: "sync", provenance: provenance(commit: "c2"))
            #expect(first.isNew && !again.isNew && other.isNew && nextCommit.isNew)
            #expect(again.id == first.id)
            #expect(try await store.list(RunFilter(), limit: 10).count == 3)
            #expect(try testStore.rawSQL("SELECT COUNT(*) FROM run_metrics WHERE run_id = \(first.id)") == String(MetricCatalog.values(in: fixtureReport()).count))
        }
    }

    @Test(arguments: TestEngine.available)
    func migrationsAreVersionedAndANewerSchemaIsRefused(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            #expect(store.schemaVersion == 1)
        }
        // Opening again applies nothing twice.
        await (try await testStore.open()).close()
        #expect(try testStore.rawSQL("SELECT version FROM drain_schema_migrations ORDER BY version") == "1")

        _ = try testStore.rawSQL("INSERT INTO drain_schema_migrations (version, applied_at, generator) VALUES (2, 'later', 'drain 9')")
        for access in [RunStore.Access.write, .read] {
            await #expect(throws: StoreError.newerSchema(store: testStore.location.description, found: 2, known: 1)) {
                _ = try await testStore.open(access)
            }
        }
        #expect(StoreError.newerSchema(store: "x", found: 2, known: 1).exitCode == 65)
    }

    @Test(arguments: TestEngine.available)
    func anEmptyStoreReadsAsEmptyWithoutWriting(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        switch engine {
        case .sqlite:
            await #expect(throws: StoreError.missing(store: testStore.location.description)) { _ = try await testStore.open(.read) }
        case .postgres:
            try await testStore.with(.read) { store in
                #expect(store.schemaVersion == 0)
                let runs = try await store.list(RunFilter(), limit: 5)
                #expect(runs.isEmpty)
                await #expect(throws: StoreError.noSuchRun(store: testStore.location.description, reference: "1")) { _ = try await store.run(1) }
            }
            // Reading created nothing.
            #expect(try testStore.rawSQL("SELECT to_regclass('runs') IS NULL") == "t")
        }
    }

    @Test(arguments: TestEngine.available)
    func hostileNamesAreBoundNotSpliced(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            let scenario = "x'); DROP TABLE runs; --" + ReportFixture.payload
            let branch = "feature/'\"; DELETE FROM run_metrics; --?$1 \\x"
            let project = "acme' OR '1'='1"
            var hostile = provenance(project: project, branch: branch)
            let cpu = "CPU'); DELETE FROM runs; --" + ReportFixture.payload
            hostile.host = HostInfo(cpu: cpu, cores: 2)
            let recorded = try await store.record(fixtureReport(), scenario: scenario, provenance: hostile)
            _ = try await store.record(fixtureReport(energy: 1), scenario: "plain", provenance: provenance())
            let found = try await store.list(RunFilter(project: project, scenario: scenario, branch: branch), limit: 10)
            #expect(found.map(\.id) == [recorded.id])
            #expect(found.first?.scenario == scenario)
            #expect(found.first?.branch == branch)
            #expect(found.first?.project == project)
            #expect(try await store.run(recorded.id).host?.cpu == cpu)
            // The quote in a filter value matches nothing rather than everything.
            #expect(try await store.list(RunFilter(project: "x' OR '1'='1"), limit: 10).isEmpty)
            #expect(try await store.list(RunFilter(), limit: 10).count == 2)
            // A NUL, which neither engine keeps, is refused before anything is written.
        await #expect(throws: StoreError.usage("the run's scenario name contains a NUL character, which a store cannot keep")) {
            _ = try await store.record(fixtureReport(energy: 2), scenario: "a\u{0}b", provenance: provenance())
        }
        // And the terminal listing shows no control character from the names.
            let listing = HistoryTerminalRenderer.list(found)
            #expect(!listing.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
        }
    }

    @Test(arguments: TestEngine.available)
    func listsFiltersAndLimitsNewestFirst(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            var ids: [Int] = []
            for day in 0..<6 {
                let branch = day % 2 == 0 ? "main" : "topic"
                ids.append(
                    try await store.record(
                        fixtureReport(energy: Double(10 + day)), scenario: "sync", provenance: provenance(branch: branch, at: start + Double(day) * 86_400)
                    ).id)
            }
            #expect(try await store.list(RunFilter(), limit: 3).map(\.id) == [ids[5], ids[4], ids[3]])
            #expect(try await store.list(RunFilter(branch: "main"), limit: 10).map(\.id) == [ids[4], ids[2], ids[0]])
            let since = StoredTime.format(start + 3 * 86_400)
            #expect(try await store.list(RunFilter(since: since), limit: 10).map(\.id) == [ids[5], ids[4], ids[3]])
            #expect(try await store.list(RunFilter(scenario: "nope"), limit: 10).isEmpty)
        }
    }

    @Test(arguments: TestEngine.available)
    func prunesBeyondTheNewestNAndBeforeADate(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            var main: [Int] = []
            var topic: [Int] = []
            for index in 0..<5 {
                main.append(try await store.record(fixtureReport(energy: Double(index)), scenario: "s", provenance: provenance(at: start + Double(index))).id)
            }
            for index in 0..<3 {
                topic.append(
                    try await store.record(
                        fixtureReport(energy: Double(100 + index)), scenario: "s", provenance: provenance(branch: "topic", at: start + Double(index))
                    ).id)
            }
            // A dry run deletes nothing.
            let planned = try await store.prune(RunFilter(), keep: 2, dryRun: true)
            #expect(planned == (main.prefix(3) + topic.prefix(1)).sorted())
            #expect(try await store.list(RunFilter(), limit: 100).count == 8)

            let deleted = try await store.prune(RunFilter(), keep: 2, dryRun: false)
            #expect(deleted == planned)
            #expect(Set(try await store.list(RunFilter(), limit: 100).map(\.id)) == Set(main.suffix(2) + topic.suffix(2)))
            let deletedList = deleted.map(String.init).joined(separator: ",")
            #expect(try testStore.rawSQL("SELECT COUNT(*) FROM run_metrics WHERE run_id IN (\(deletedList))") == "0")
            #expect(try testStore.rawSQL("SELECT COUNT(*) FROM run_findings WHERE run_id IN (\(deletedList))") == "0")

            // --before: only what was recorded before the date.
            let before = try await store.prune(RunFilter(before: StoredTime.format(start + 4)), keep: nil, dryRun: false)
            #expect(before == [main[3], topic[1], topic[2]].sorted())
            #expect(try await store.list(RunFilter(), limit: 100).map(\.id) == [main[4]])
        }
    }

    @Test(arguments: TestEngine.available)
    func trendGroupsRunsByCommitWithTheirMedian(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let values: [(commit: String, energy: Double)] = [("c1", 10), ("c1", 14), ("c1", 12), ("c2", 20), ("c3", 8), ("c3", 9)]
            for (index, value) in values.enumerated() {
                _ = try await store.record(
                    fixtureReport(energy: value.energy), scenario: "s", provenance: provenance(commit: value.commit, at: start + Double(index) * 60))
            }
            _ = try await store.record(fixtureReport(energy: 99), scenario: "other", provenance: provenance(commit: "c2", at: start))
            let found = try await store.trend(metric: "energy.total_j", filter: RunFilter(scenario: "s", branch: "main"))
            #expect(found.unit == "J")
            let series = TrendSeries(metric: "energy.total_j", unit: found.unit, scenario: "s", branch: "main", points: found.points)
            #expect(series.commits.map(\.commit) == ["c1", "c2", "c3"])
            #expect(series.commits.map(\.median) == [12, 20, 8.5])
            #expect(series.commits.map { $0.runs.map(\.value) } == [[10, 14, 12], [20], [8, 9]])
            // One CSV record per run, with its commit's median.
            let csv = TrendCSVRenderer.render(series).split(separator: "\r\n")
            #expect(csv.count == 7)
            #expect(csv[1].hasSuffix(",energy.total_j,10.0,J,12.0"))
        }
    }

    @Test(arguments: TestEngine.available)
    func resolvesRunIdsAndBranchAtCommit(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        defer { testStore.remove() }
        try await testStore.with { store in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let commit = "3f2a9c1d00112233445566778899aabbccddeeff"
            let older = try await store.record(fixtureReport(energy: 1), scenario: "sync", provenance: provenance(commit: commit, at: start))
            let newer = try await store.record(fixtureReport(energy: 2), scenario: "sync", provenance: provenance(commit: commit, at: start + 60))
            _ = older
            #expect(try await store.resolve(String(newer.id)) == newer.id)
            #expect(try await store.resolve("main@3f2a9c1") == newer.id)
            #expect(try await store.resolve("main@3F2A9C1D", scenario: "sync") == newer.id)
            let store_ = testStore.location.description
            await #expect(throws: StoreError.noSuchRun(store: store_, reference: "topic@3f2a9c1")) { _ = try await store.resolve("topic@3f2a9c1") }
            await #expect(throws: StoreError.noSuchRun(store: store_, reference: "999999")) { _ = try await store.resolve("999999") }
            await #expect(throws: StoreError.self) { _ = try await store.resolve("main@xyz") }
            _ = try await store.record(fixtureReport(energy: 3), scenario: "launch", provenance: provenance(commit: commit, at: start + 120))
            do {
                _ = try await store.resolve("main@3f2a9c1")
                Issue.record("an ambiguous reference resolved")
            } catch let error as StoreError {
                #expect(error.exitCode == 64)
                #expect(error.description.contains("launch, sync"))
            }
        }
    }
}
