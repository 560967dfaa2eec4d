import ArgumentParser
import DrainHistory

struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a stored run's report JSON, as 'drain analyze --json' wrote it.",
        discussion: """
            The report can then be rendered again ('drain analyze report.json --html r.html'), \
            gated or compared like any saved report.

            Examples:
              drain history export 42 --json run42.json
              drain history export main@3f2a9c1 --scenario sync --json - | jq .energy
            """
    )

    @OptionGroup var storedRun: StoredRunArguments

    @Option(help: ArgumentHelp("Write the report JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var json: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        let store = try await storeOptions.open(access: .read)
        let storedRun = storedRun
        let bytes = try await using(store) { store throws(StoreError) in try await store.reportJSON(try await storedRun.id(in: store)) }
        try writeOutput(String(decoding: bytes, as: UTF8.self), to: json)
    }
}
