import ArgumentParser
import DrainHistory
import DrainImport
import DrainPipeline
import DrainRender
import DrainReport

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse traces of one run and report energy, memory and guidance findings.",
        discussion: """
            Several inputs of the same run share one timeline, lined up by wall clock (the \
            start in a trace header, packet time stamps in a capture). Without an output option the terminal summary is printed; \
            with --json - only the JSON report goes to standard output. A report JSON saved \
            earlier can be given instead of the inputs, to render it again in other formats.

            Examples:
              drain analyze app.jsonl
              drain analyze app.jsonl --html report.html --json report.json --csv tables/
              drain analyze app.jsonl --model iphone-wifi --json - | jq .energy
              drain analyze phone.pcapng app.jsonl --link cellular --html report.html
              drain analyze report.json --html report.html
              drain analyze app.jsonl --store --scenario cold-start

            Input formats (recognised by their first bytes, not their names; gzip-compressed \
            files are read as they are):

            """ + Importers.inputFormatsHelp
    )

    @Argument(help: ArgumentHelp(Importers.inputFilesHelp + " Or one report JSON saved by --json.", valueName: "INPUT"))
    var inputs: [String]

    @OptionGroup var modelOptions: ModelOptions
    @OptionGroup(title: "Captures") var capture: CaptureArguments
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("Width of the timeline bins in seconds (default: automatic).", valueName: "SECONDS"))
    var bin: Double?

    @Option(
        name: .customLong("gap-threshold"),
        help: ArgumentHelp(
            "A stretch without events longer than this is a time gap, left out of the active duration, average power and per-hour figures: seconds, or a number with s, m, h or d (default: 1h, at least 1m).",
            valueName: "DURATION"))
    var gapThreshold: String?

    @OptionGroup(title: "Run history") var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("Record the run in the history under this scenario (with --store or $DRAIN_STORE).", valueName: "NAME"))
    var scenario: String?

    @OptionGroup(title: "Run history") var identity: RunIdentityOptions

    func validate() throws {
        if let bin, !(bin > 0) { throw ValidationError("--bin must be a positive number of seconds") }
        if let gapThreshold {
            guard let seconds = AnalysisOptions.seconds(fromDuration: gapThreshold), seconds >= AnalysisOptions.minimumGapThresholdS,
                seconds.isFinite
            else {
                throw ValidationError(
                    "--gap-threshold takes a duration of at least 1m: seconds, or a number with s, m, h or d (90, 30m, 1h, 2d), not '\(gapThreshold)'")
            }
        }
        if storeOptions.store != nil, scenario == nil {
            throw ValidationError("--store records the run: name its scenario with --scenario NAME")
        }
    }

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        // $DRAIN_STORE alone records only runs that name their scenario.
        let store = scenario == nil ? nil : try storeOptions.location(fallbackToDefault: false)
        let showProgress = !output.quiet && Console.standardErrorIsTerminal
        let options = AnalysisOptions(
            inputs: inputs, model: modelOptions.model, configuration: modelOptions.config, binSeconds: bin,
            gapThresholdS: gapThreshold.flatMap(AnalysisOptions.seconds(fromDuration:)), capture: capture.options, progress: showProgress ? { Console.progressMeter(for: $0) } : nil)
        let report: Report
        do {
            report = try ReportSource.report(options)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        let outputs = output.outputs
        do {
            if let json = try outputs.write(report) { Console.standardOutput(json) }
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
        if !output.quiet {
            if outputs.writesStandardOutput {
                Console.standardError(TerminalReportRenderer.render(report, color: Console.standardErrorIsTerminal))
            } else {
                Console.standardOutput(TerminalReportRenderer.render(report, color: Console.standardOutputIsTerminal))
            }
        }
        if let store, let scenario { try await record(report, in: store, scenario: scenario) }
    }

    private func record(_ report: Report, in location: StoreLocation, scenario: String) async throws {
        do throws(StoreError) {
            let store = try await RunStore.open(location, access: .write)
            let recorded: RecordedRun
            do {
                recorded = try await store.record(report, scenario: scenario, provenance: identity.provenance)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            if !output.quiet {
                Console.standardError(
                    recorded.isNew ? "drain: recorded run \(recorded.id) in \(location)" : "drain: already stored as run \(recorded.id) in \(location)")
            }
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
    }
}
