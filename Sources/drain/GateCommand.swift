import ArgumentParser
import DrainGate
import DrainHistory
import DrainPipeline
import DrainRender
import Foundation

extension GitHubMode: ExpressibleByArgument {}

struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Judge repeated runs of a scenario against an energy and memory budget and a baseline, for CI.",
        discussion: """
            Each RUN is one run of the scenario: a report JSON saved by 'drain analyze --json', or \
            one input file analysed as 'drain analyze' would. Several RUNs are repeated runs of the \
            same scenario; their values are aggregated (median by default, the maximum for memory) \
            and, against a baseline, compared with a seeded bootstrap interval and a Mann-Whitney \
            test, so that noise does not fail a build. docs/gate.md describes the budget file, \
            every metric, the statistics and CI recipes.

            With --store, every run is recorded in the run history (docs/history.md), and \
            --base-branch takes the baseline from the base branch's runs at the merge base of \
            HEAD and that branch (or its nearest ancestor with runs).

            Exit codes: 0 pass (warnings, improvements and inconclusive results included), 1 fail \
            (an error-level budget breached, a confirmed regression, an inconclusive one with \
            --fail-on inconclusive, no baseline with --require-baseline, or an output file that \
            could not be written), 64 bad usage, 65 bad budget, baseline, report or store schema, \
            66 unreadable file, 69 the run history could not be reached or refused the runs. No \
            other codes.

            Examples:
              drain gate run1.json run2.json run3.json --budget drain-budget.yml
              drain gate runs/*.json --baseline base/*.json --scenario sync --junit gate.xml
              drain gate runs/*.json --budget drain-budget.yml --save-baseline baseline.json
              drain gate app.jsonl --budget drain-budget.yml --baseline baseline.json --markdown summary.md
              drain gate runs/*.json --scenario sync --store --base-branch main
              drain gate runs/*.json --scenario sync --store postgres://ci@db:5432/drain --base-branch main --require-baseline
            """
    )

    enum FailOn: String, ExpressibleByArgument, CaseIterable {
        case inconclusive
    }

    @Argument(help: ArgumentHelp("Runs of the scenario: report JSONs or input files, one run each.", valueName: "RUN"))
    var runs: [String]

    @Option(help: ArgumentHelp("The budget file (YAML, see docs/gate.md).", valueName: "FILE"))
    var budget: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("The baseline: a file written by --save-baseline, or report JSONs of baseline runs.", valueName: "FILE"))
    var baseline: [String] = []

    @Option(
        name: .customLong("save-baseline"),
        help: ArgumentHelp("Write these runs as a baseline to FILE (every run's values, finding keys, model, git commit, host).", valueName: "FILE"))
    var saveBaseline: String?

    @Option(help: ArgumentHelp("The scenario's name: selects the budget's scenario overrides and labels the outputs.", valueName: "NAME"))
    var scenario: String?

    @Option(help: ArgumentHelp("Write the verdict as JSON to FILE ('-' for standard output).", valueName: "FILE"))
    var json: String?

    @Option(help: ArgumentHelp("Write the verdict as JUnit XML to FILE (one test case per check).", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Write a Markdown summary to FILE (for $GITHUB_STEP_SUMMARY and pull-request comments).", valueName: "FILE"))
    var markdown: String?

    @Option(help: ArgumentHelp("Print GitHub workflow commands (annotations): auto (when GITHUB_ACTIONS=true), always or never.", valueName: "MODE"))
    var github: GitHubMode = .auto

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Also fail on an inconclusive regression.", valueName: "inconclusive"))
    var failOn: FailOn?

    @Option(
        help: ArgumentHelp(
            "Device model that prices runs given as inputs, and pins the gate to it: a built-in name or a model YAML file.",
            valueName: "NAME|FILE"))
    var model: String?

    @OptionGroup(title: "Captures") var capture: CaptureArguments

    @OptionGroup(title: "Run history") var storeOptions: StoreOptions

    @Option(
        name: .customLong("base-branch"),
        help: ArgumentHelp("Take the baseline from this branch's runs in the history, at the merge base with HEAD.", valueName: "BRANCH"))
    var baseBranch: String?

    @Flag(name: .customLong("require-baseline"), help: "Fail when the history holds no baseline for --base-branch.")
    var requireBaseline = false

    @Flag(name: .customLong("no-record"), help: "Take the baseline from the history but do not record these runs (a read-only user will do).")
    var noRecord = false

    @OptionGroup(title: "Run history") var identity: RunIdentityOptions

    @Flag(name: .shortAndLong, help: "Do not print the verdict to the terminal.")
    var quiet = false

    func validate() throws {
        let hasStore = storeOptions.store != nil
        guard budget != nil || !baseline.isEmpty || saveBaseline != nil || hasStore else {
            throw ValidationError("give --budget FILE, --baseline FILE or both (or --save-baseline FILE to record a baseline, or --store to record the runs)")
        }
        if baseBranch != nil, !hasStore { throw ValidationError("--base-branch takes the baseline from the run history: give --store too") }
        if requireBaseline, baseBranch == nil { throw ValidationError("--require-baseline applies to --base-branch") }
        if noRecord, baseBranch == nil { throw ValidationError("--no-record applies to --base-branch (without it, --store only records)") }
        if hasStore, scenario == nil { throw ValidationError("--store records the runs: name their scenario with --scenario NAME") }
    }

    func run() throws {
        try AsyncBridge.run { [self] in try await runAsync() }
    }

    private func runAsync() async throws {
        let request = GateRequest(
            runs: runs, budgetPath: budget, baselinePaths: baseline, saveBaselinePath: saveBaseline, scenario: scenario, model: model,
            failOnInconclusive: failOn == .inconclusive, capture: capture.options)
        let store = scenario == nil ? nil : try storeOptions.location(fallbackToDefault: false)
        let result: (verdict: GateVerdict, baseline: Baseline?)
        if let store, let scenario {
            let history = HistoryGateRequest(
                store: store, scenario: scenario, baseBranch: baseBranch, requireBaseline: requireBaseline, record: !noRecord,
                provenance: identity.provenance)
            do {
                let outcome = try await HistoryGate.run(request, history: history, generator: Analysis.generator, host: .current)
                result = (outcome.verdict, outcome.baseline)
                if !quiet, !noRecord {
                    let added = outcome.recorded.filter(\.isNew).count
                    Console.standardError("drain: recorded \(added) of \(outcome.recorded.count) run\(outcome.recorded.count == 1 ? "" : "s") in \(store)")
                }
            } catch {
                Console.error(error.description)
                throw ExitCode(error.exitCode)
            }
        } else {
            guard budget != nil || !baseline.isEmpty || saveBaseline != nil else {
                Console.error("give --budget FILE or --baseline FILE: $DRAIN_STORE is used only with --scenario")
                throw ExitCode(64)
            }
            do {
                result = try GateRunner.run(request, generator: Analysis.generator)
            } catch {
                Console.error(error.description)
                throw ExitCode(error.exitCode)
            }
        }
        let verdict = result.verdict
        var files: [(path: String, text: String)] = []
        var standardOutput: String?
        do {
            if let json {
                let text = try GateJSONRenderer().render(verdict)
                if json == "-" { standardOutput = text } else { files.append((json, text)) }
            }
            if let junit { files.append((junit, GateJUnitRenderer().render(verdict))) }
            if let markdown { files.append((markdown, GateMarkdownRenderer().render(verdict))) }
            if let saveBaseline, let baseline = result.baseline { files.append((saveBaseline, try baseline.json())) }
            for file in files { try ReportWriter.write(file.text, to: file.path) }
        } catch {
            // The verdict could not be recorded: a CI must not take that for a pass.
            Console.error("the gate's verdict could not be written: \(error)")
            throw ExitCode(1)
        }
        if let standardOutput { Console.standardOutput(standardOutput) }
        if github.isEnabled(environment: ProcessInfo.processInfo.environment) {
            for line in GitHubAnnotations().lines(verdict) { Console.standardOutput(line + "\n") }
        }
        if !quiet {
            let text = GateTerminalRenderer(color: standardOutput == nil ? Console.standardOutputIsTerminal : Console.standardErrorIsTerminal)
                .render(verdict)
            if standardOutput == nil { Console.standardOutput(text) } else { Console.standardError(text) }
        }
        if verdict.exitCode != 0 { throw ExitCode(verdict.exitCode) }
    }
}
