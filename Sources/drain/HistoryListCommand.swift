import ArgumentParser
import DrainHistory
import DrainRender

struct HistoryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List stored runs, newest first.",
        discussion: """
            Examples:
              drain history list
              drain history list --scenario cold-start --branch main --since 2026-11-01
              drain history list --store postgres://reader@db:5432/drain --json - | jq '.[].id'
            """
    )

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var filter: RunFilterOptions

    @Option(help: ArgumentHelp("Runs recorded on or after this date or time (2026-11-24, or RFC 3339).", valueName: "DATE"))
    var since: String?

    @Option(help: ArgumentHelp("The most runs listed.", valueName: "N"))
    var limit = 20

    @Option(help: ArgumentHelp("Write the runs as JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var json: String?

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be a positive number") }
        _ = try storedTime(since, option: "--since")
    }

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        var runFilter = filter.runFilter
        runFilter.since = try storedTime(since, option: "--since")
        let store = try await storeOptions.open(access: .read)
        let limit = limit
        let runs = try await using(store) { store throws(StoreError) in try await store.list(runFilter, limit: limit) }
        if let json {
            try writeOutput(try ReportJSON.document(runs), to: json)
            if json == "-" { return }
        }
        Console.standardOutput(HistoryTerminalRenderer.list(runs))
    }
}

/// The filters the history commands share.
struct RunFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only runs of this project.", valueName: "NAME"))
    var project: String?

    @Option(help: ArgumentHelp("Only runs of this scenario.", valueName: "NAME"))
    var scenario: String?

    @Option(help: ArgumentHelp("Only runs of this branch.", valueName: "NAME"))
    var branch: String?

    var runFilter: RunFilter { RunFilter(project: project, scenario: scenario, branch: branch) }
}
