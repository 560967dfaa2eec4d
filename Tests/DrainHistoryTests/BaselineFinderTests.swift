import DrainGate
import DrainHistory
import DrainReport
import Foundation
import Testing

/// Baselines from history: the base branch's runs at the merge base, else at the nearest
/// first-parent ancestor with runs, of the same project, scenario and model only.
@Suite struct BaselineFinderTests {
    @Test(arguments: TestEngine.available)
    func takesTheRunsAtTheMergeBaseOrItsNearestAncestorWithRuns(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        let repository = try GitFixture()
        defer {
            testStore.remove()
            repository.remove()
        }
        let c1 = try repository.commit("c1")
        let c2 = try repository.commit("c2")
        let c3 = try repository.commit("c3")
        try repository.checkout(newBranch: "topic")
        try repository.commit("c4 on topic")
        try await testStore.with { store in
            let model = fixtureReport().model.name
            let energies = [80.0, 82.0, 81.0]
            for energy in energies {
                _ = try await store.record(fixtureReport(energy: energy), scenario: "sync", provenance: provenance(branch: "main", commit: c1))
            }
            // Runs that must not be taken: another scenario at the merge base, another branch at c2.
            _ = try await store.record(fixtureReport(energy: 1), scenario: "launch", provenance: provenance(branch: "main", commit: c3))
            _ = try await store.record(fixtureReport(energy: 2), scenario: "sync", provenance: provenance(branch: "topic", commit: c2))

            let found = try await BaselineFinder.find(
                in: store, project: "github.com/acme/app", scenario: "sync", model: model, baseBranch: "main", git: repository.git)
            #expect(found.mergeBase == c3)
            #expect(found.commit == c1)
            #expect(found.commitsBack == 2)
            let baseline = try #require(found.baseline)
            #expect(baseline.runs.count == 3)
            #expect(baseline.runs.map { $0.metrics["energy.total_j"] } == energies)
            #expect(baseline.git == GitRevision(commit: c1, branch: "main"))
            #expect(baseline.model == model)
            #expect(baseline.runs[0].findings == Array(Set(fixtureReport().findings.map(\.key))).sorted())
            #expect(found.summary == "baseline from the history: 3 runs of main at \(c1.prefix(12)), 2 commits before the merge base \(c3.prefix(12))")

            // At the merge base itself once it has runs.
            _ = try await store.record(fixtureReport(energy: 90), scenario: "sync", provenance: provenance(branch: "main", commit: c3))
            let atBase = try await BaselineFinder.find(
                in: store, project: "github.com/acme/app", scenario: "sync", model: model, baseBranch: "main", git: repository.git)
            #expect(atBase.commit == c3)
            #expect(atBase.commitsBack == 0)
            #expect(atBase.baseline?.runs.count == 1)
        }
    }

    @Test(arguments: TestEngine.available)
    func saysSoWhenNoCommitHasRuns(engine: TestEngine) async throws {
        let testStore = try TestStore.make(engine)
        let repository = try GitFixture()
        defer {
            testStore.remove()
            repository.remove()
        }
        try repository.commit("c1")
        let c2 = try repository.commit("c2")
        try await testStore.with { store in
            _ = try await store.record(fixtureReport(), scenario: "sync", provenance: provenance(branch: "main", commit: c2))
            // Another model's runs are no baseline for this one.
            let found = try await BaselineFinder.find(
                in: store, project: "github.com/acme/app", scenario: "sync", model: "iphone-5g", baseBranch: "main", git: repository.git)
            #expect(found.baseline == nil)
            #expect(found.searched == 2)
            #expect(found.summary == "no baseline in the history: no run of sync (iphone-5g) on main at the merge base \(c2.prefix(12)) or the 1 commit before it")
        }
    }

    @Test func namesWhatGitCannotGive() async throws {
        let testStore = try TestStore.make(.sqlite)
        let repository = try GitFixture()
        defer {
            testStore.remove()
            repository.remove()
        }
        try repository.commit("c1")
        try await testStore.with { store in
            do {
                _ = try await BaselineFinder.find(in: store, project: "p", scenario: "s", model: "m", baseBranch: "release", git: repository.git)
                Issue.record("an unknown base branch was accepted")
            } catch let error as StoreError {
                #expect(error.description == "the base branch 'release' is not known to git here (fetch it first: git fetch origin release)")
                #expect(error.exitCode == 64)
            }
            let outside = FileManager.default.temporaryDirectory.appendingPathComponent("drain-no-git-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: outside) }
            await #expect(throws: StoreError.usage("--base-branch needs a git work tree: \(outside.path) is not in one")) {
                _ = try await BaselineFinder.find(in: store, project: "p", scenario: "s", model: "m", baseBranch: "main", git: GitWorkTree(directory: outside.path))
            }
        }
    }
}
