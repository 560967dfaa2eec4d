import ArgumentParser
import DrainGate
import DrainHistory
import DrainRender

struct HistoryTrendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "A metric of a scenario over commits: a table, an offline HTML chart or CSV.",
        discussion: """
            Every run is a point at its commit; commits are in the order their first run was \
            recorded, and each commit's median is given (the chart joins them). METRIC is any \
            name of the report's metrics block or a gate metric (docs/gate.md#metrics).

            Examples:
              drain history trend --metric energy.total_j --scenario cold-start
              drain history trend --metric memory.peak_bytes --scenario sync --branch main --html trend.html
            """
    )

    @Option(help: ArgumentHelp("The metric (energy.total_j, memory.peak_bytes, …).", valueName: "NAME"))
    var metric: String

    @Option(help: ArgumentHelp("The scenario.", valueName: "NAME"))
    var scenario: String

    @Option(help: ArgumentHelp("Only runs of this branch.", valueName: "NAME"))
    var branch: String?

    @Option(help: ArgumentHelp("Only runs of this project.", valueName: "NAME"))
    var project: String?

    @Option(help: ArgumentHelp("Write the chart page to FILE.", valueName: "FILE"))
    var html: String?

    @Option(help: ArgumentHelp("Write one CSV record per run to FILE ('-' for standard output).", valueName: "FILE"))
    var csv: String?

    @Option(help: ArgumentHelp("Write the series as JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var json: String?

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard MetricCatalog.definition(metric) != nil else {
            throw ValidationError("'\(metric)' is not a metric (docs/gate.md#metrics lists them: energy.total_j, memory.peak_bytes, …)")
        }
        guard [csv, json].compactMap({ $0 }).filter({ $0 == "-" }).count <= 1 else {
            throw ValidationError("only one of --csv and --json can write to standard output")
        }
    }

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        let store = try await storeOptions.open(access: .read)
        let filter = RunFilter(project: project, scenario: scenario, branch: branch)
        let metric = metric
        let found = try await using(store) { store throws(StoreError) in try await store.trend(metric: metric, filter: filter) }
        let series = TrendSeries(metric: metric, unit: found.unit, scenario: scenario, branch: branch, points: found.points)
        var wroteStandardOutput = false
        do {
            if let html { try writeOutput(try TrendHTMLRenderer.render(series), to: html) }
        } catch let error as ReportRenderError {
            Console.error("cannot render the trend: \(error)")
            throw ExitCode(73)
        }
        if let csv {
            try writeOutput(TrendCSVRenderer.render(series), to: csv)
            wroteStandardOutput = wroteStandardOutput || csv == "-"
        }
        if let json {
            try writeOutput(try ReportJSON.document(series), to: json)
            wroteStandardOutput = wroteStandardOutput || json == "-"
        }
        if !wroteStandardOutput { Console.standardOutput(HistoryTerminalRenderer.trend(series)) }
    }
}
