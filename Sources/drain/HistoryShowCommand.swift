import ArgumentParser
import DrainHistory
import DrainRender

struct HistoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one stored run: where and when it was made, its metrics and finding keys.",
        discussion: """
            RUN is a run id (from 'drain history list') or BRANCH@COMMIT (the newest run of that \
            branch at that commit; a commit prefix of 4 or more hex digits will do).

            Examples:
              drain history show 42
              drain history show main@3f2a9c1 --scenario cold-start --json -
            """
    )

    @OptionGroup var storedRun: StoredRunArguments

    @Option(help: ArgumentHelp("Write the run as JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var json: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        let store = try await storeOptions.open(access: .read)
        let storedRun = storedRun
        let stored = try await using(store) { store throws(StoreError) in try await store.run(try await storedRun.id(in: store)) }
        if let json {
            try writeOutput(try ReportJSON.document(stored), to: json)
            if json == "-" { return }
        }
        Console.standardOutput(HistoryTerminalRenderer.show(stored))
    }
}
