import ArgumentParser
import DrainHistory
import DrainPipeline
import DrainRender

/// `--store`: the run history.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The run history: sqlite:PATH or postgres://USER@HOST:PORT/DB[?sslmode=require]. Alone: $DRAIN_STORE, else .drain/history.sqlite at the git work tree's root.",
            valueName: "URL"))
    var store: String?

    /// The store to record into or read, or `nil` when there is none (`fallbackToDefault`:
    /// the history commands always have one).
    func location(fallbackToDefault: Bool) throws -> StoreLocation? {
        do {
            return try StoreLocation.resolve(option: store, fallbackToDefault: fallbackToDefault)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
    }
}

/// A stored run named on the command line: `drain history show` and `export`.
struct StoredRunArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The run: an id or BRANCH@COMMIT.", valueName: "RUN"))
    var reference: String

    @Option(help: ArgumentHelp("The scenario, when BRANCH@COMMIT has runs of several.", valueName: "NAME"))
    var scenario: String?

    /// The run's id in `store`.
    func id(in store: RunStore) async throws(StoreError) -> Int {
        try await store.resolve(reference, scenario: scenario)
    }
}

/// Who a recorded run belongs to, when git and the CI's variables do not say it right.
struct RunIdentityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The project runs are recorded under (default: the git remote, else the folder's name).", valueName: "NAME"))
    var project: String?

    @Option(help: ArgumentHelp("The branch runs are recorded under (default: the CI's branch variable, else git's branch).", valueName: "NAME"))
    var branch: String?

    @Option(help: ArgumentHelp("The commit runs are recorded at (default: git's HEAD).", valueName: "SHA"))
    var commit: String?

    var provenance: RunProvenance {
        RunProvenance.current(project: project, branch: branch, commit: commit, generator: Analysis.generator)
    }
}

extension StoreOptions {
    /// Opens the store (the default one when none is named), or exits with the store's error.
    func open(access: RunStore.Access) async throws -> RunStore {
        guard let location = try location(fallbackToDefault: true) else { throw ExitCode(64) }
        do {
            return try await RunStore.open(location, access: access)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitCode)
        }
    }
}

/// Runs `body` with `store`, closes it, and turns a `StoreError` into its message and exit code.
func using<T>(_ store: RunStore, _ body: (RunStore) async throws(StoreError) -> T) async throws -> T {
    do {
        let result = try await body(store)
        await store.close()
        return result
    } catch {
        await store.close()
        Console.error(error.description)
        throw ExitCode(error.exitCode)
    }
}

/// A date option (`2026-11-24` or RFC 3339) in the store's form.
func storedTime(_ text: String?, option: String) throws -> String? {
    guard let text else { return nil }
    guard let time = StoredTime.normalize(text) else {
        throw ValidationError("\(option) takes a date (2026-11-24) or an RFC 3339 time (2026-11-24T07:30:00Z), not '\(text)'")
    }
    return time
}

/// Writes `text` to `path`, or to standard output for `-`; exits 73 when it cannot.
func writeOutput(_ text: String, to path: String) throws {
    if path == "-" {
        Console.standardOutput(text)
        return
    }
    do {
        try ReportWriter.write(text, to: path)
    } catch {
        Console.error(String(describing: error))
        throw ExitCode(73)
    }
}
