import ArgumentParser
import DrainCompare
import DrainHistory
import DrainImport
import DrainPipeline
import DrainRender
import DrainReport

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two or more runs: energy, memory, endpoints, files, threads and findings, side by side.",
        discussion: """
            Each RUN is a report JSON saved by 'drain analyze --json', one input file analysed \
            as 'drain analyze' would, or a stored run of the run history: store:RUN_ID or \
            store:BRANCH@COMMIT (the newest run of that branch at that commit). The first RUN is the reference; every other run is compared \
            with it. Timelines are re-binned to one common width and lined up at --align. \
            Without an output option a terminal table is printed. docs/compare.md describes \
            every figure and the interactive page.

            Examples:
              drain compare before.json after.json --html compare.html
              drain compare before.jsonl after.jsonl --label before --label after --markdown pr.md
              drain compare a.json b.json c.json --align mark:feed-loaded --threshold 10 --json cmp.json
              drain compare store:main@3f2a9c1 app.jsonl --scenario cold-start --html compare.html
            """
    )

    @Argument(help: ArgumentHelp("Runs to compare, the reference first: report JSONs or input files, one run each.", valueName: "RUN"))
    var runs: [String]

    @Option(help: ArgumentHelp("A label for each run, in order (default: the file names).", valueName: "NAME"))
    var label: [String] = []

    @Option(help: ArgumentHelp("Write the interactive comparison page to FILE.", valueName: "FILE"))
    var html: String?

    @Option(help: ArgumentHelp("Write a Markdown comparison to FILE (for pull-request comments).", valueName: "FILE"))
    var markdown: String?

    @Option(help: ArgumentHelp("Write the comparison as JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var json: String?

    @Option(help: ArgumentHelp("Write CSV tables (runs, summary, endpoints, files, threads, findings, timeline) into DIR.", valueName: "DIR"))
    var csv: String?

    @Option(help: ArgumentHelp("Line the timelines up at: start, mark:NAME (each run's first mark of that name) or state:STATE (its first change into that lifecycle state).", valueName: "ANCHOR"))
    var align = "start"

    @Option(help: ArgumentHelp("Highlight changes beyond this share of the reference (percent, default 5).", valueName: "PCT"))
    var threshold = 5.0

    @Option(help: ArgumentHelp("The common bin width in seconds (default: the least common multiple of the runs' bin widths).", valueName: "SECONDS"))
    var bin: Double?

    @OptionGroup var modelOptions: ModelOptions
    @OptionGroup(title: "Captures") var capture: CaptureArguments

    @OptionGroup(title: "Run history") var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The scenario of store:BRANCH@COMMIT runs, when that commit has runs of several.", valueName: "NAME"))
    var scenario: String?

    @Flag(name: .shortAndLong, help: "Do not print the terminal table.")
    var quiet = false

    func validate() throws {
        guard runs.count >= 2 else { throw ValidationError("give at least two runs to compare") }
        guard label.count <= runs.count else { throw ValidationError("\(label.count) labels for \(runs.count) runs") }
        guard Alignment(argument: align) != nil else {
            throw ValidationError("--align takes start, mark:NAME or state:STATE (not_running, inactive, active, background, suspended), not '\(align)'")
        }
        guard threshold >= 0, threshold.isFinite else { throw ValidationError("--threshold must be a percentage of 0 or more") }
        if let bin, !(bin > 0) { throw ValidationError("--bin must be a positive number of seconds") }
    }

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        let options = AnalysisOptions(inputs: [], model: modelOptions.model, configuration: modelOptions.config, capture: capture.options)
        let store = runs.contains(where: StoredRunSource.isStored) ? try storeOptions.location(fallbackToDefault: true) : nil
        let reports: [Report]
        do {
            reports = try await StoredRunSource.reports(runs, options: options, store: store, scenario: scenario)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        let labels = runs.indices.map { $0 < label.count ? label[$0] : Self.fileName(runs[$0]) }
        let comparison: Comparison
        do {
            comparison = try Comparison(
                reports,
                options: ComparisonOptions(
                    labels: labels, alignment: Alignment(argument: align)!, thresholdPct: threshold, binS: bin, generator: Analysis.generator))
        } catch {
            Console.error(error.description)
            throw ExitCode(64)
        }
        var files: [(path: String, text: String)] = []
        var standardOutput: String?
        do {
            if let json {
                let text = try ReportJSON.document(comparison)
                if json == "-" { standardOutput = text } else { files.append((json, text)) }
            }
            if let html { files.append((html, try CompareHTMLRenderer.render(comparison))) }
            if let markdown { files.append((markdown, CompareMarkdownRenderer().render(comparison))) }
        } catch {
            Console.error("cannot render the comparison: \(error)")
            throw ExitCode(73)
        }
        do {
            for file in files { try ReportWriter.write(file.text, to: file.path) }
            if let csv { try ReportWriter.writeTables(CompareCSVRenderer().tables(comparison), directory: csv) }
        } catch {
            Console.error(String(describing: error))
            throw ExitCode(OutputError.write(error).exitCode)
        }
        if let standardOutput { Console.standardOutput(standardOutput) }
        let wroteFiles = !files.isEmpty || csv != nil || standardOutput != nil
        if !quiet, !wroteFiles || standardOutput != nil {
            let text = CompareTerminalRenderer(color: standardOutput == nil ? Console.standardOutputIsTerminal : Console.standardErrorIsTerminal)
                .render(comparison)
            if standardOutput == nil { Console.standardOutput(text) } else { Console.standardError(text) }
        }
    }

    /// `runs/before.json` → `before.json`.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
