import ArgumentParser
import DrainHistory

struct HistoryPruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete old runs: beyond the newest N of each project, scenario and branch, or recorded before a date.",
        discussion: """
            With both --keep and --before, a run is deleted when it is older than DATE and not \
            among the newest N of its project, scenario and branch. --scenario, --branch and \
            --project narrow what is pruned. One transaction: all the runs go, or none.

            Examples:
              drain history prune --keep 200
              drain history prune --before 2026-06-01 --dry-run
              drain history prune --keep 50 --branch feature/old-sync
            """
    )

    @Option(help: ArgumentHelp("Keep the newest N runs of each project, scenario and branch.", valueName: "N"))
    var keep: Int?

    @Option(help: ArgumentHelp("Delete runs recorded before this date or time (2026-11-24, or RFC 3339).", valueName: "DATE"))
    var before: String?

    @OptionGroup var filter: RunFilterOptions

    @Flag(name: .customLong("dry-run"), help: "Say what would be deleted, and delete nothing.")
    var dryRun = false

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard keep != nil || before != nil else { throw ValidationError("give --keep N, --before DATE or both") }
        if let keep, keep < 0 { throw ValidationError("--keep must be 0 or more") }
        _ = try storedTime(before, option: "--before")
    }

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        var runFilter = filter.runFilter
        runFilter.before = try storedTime(before, option: "--before")
        let store = try await storeOptions.open(access: dryRun ? .read : .write)
        let (keep, dryRun) = (keep, dryRun)
        let ids = try await using(store) { store throws(StoreError) in try await store.prune(runFilter, keep: keep, dryRun: dryRun) }
        let runs = "\(ids.count) run\(ids.count == 1 ? "" : "s")"
        let listed = ids.isEmpty ? "" : ": " + ids.prefix(20).map(String.init).joined(separator: ", ") + (ids.count > 20 ? ", …" : "")
        Console.standardOutput(dryRun ? "would delete \(runs)\(listed)" : "deleted \(runs)\(listed)")
    }
}
