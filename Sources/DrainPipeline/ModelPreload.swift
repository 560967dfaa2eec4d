import DrainModel
import DrainTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The device model a run most likely prices with — the one `--model` names, or the default —
/// loaded on a thread of its own while the inputs are imported.
///
/// Which model a run uses is known only after the import (an input's device hint can choose
/// another built-in one), so it used to be loaded then, on the path to the report: parsing
/// and decoding its YAML took 3–4 ms, much of it the Swift runtime looking up conformances
/// for the first time, while a capture's import leaves a core idle. The preloaded model is
/// used when the name the run resolves is the preloaded one; otherwise that model is loaded
/// as before. Either way the result — model or error — is the same, and an import error
/// still comes first.
public final class ModelPreload: @unchecked Sendable {
    let name: String
    // Written by the loading thread before `join` returns; read only after it.
    private var result: Result<DeviceModel, ModelError>?
    private var thread: JoinableThread?

    /// Starts loading `name` (a built-in model or a model file, as `ModelCatalog.load`).
    init(name: String) {
        self.name = name
        // Without a thread, `start` loads it here.
        thread = JoinableThread.start { [self] in
            result = Result { () throws(ModelError) in try ModelCatalog.load(nameOrPath: name) }
        }
    }

    /// The model `name` names: the preloaded one when it is `self.name`, else loaded now
    /// (while the preload, if still running, finishes alongside).
    func model(named name: String) -> Result<DeviceModel, ModelError> {
        if name == self.name {
            finish()
            if let result { return result }
        }
        let loaded = Result { () throws(ModelError) in try ModelCatalog.load(nameOrPath: name) }
        finish()
        return loaded
    }

    /// Waits for the loading thread, once.
    func finish() {
        thread?.join()
        thread = nil
    }
}

extension ModelPreload {
    /// The preload `drain` started before parsing its arguments, until an analysis takes it.
    private final class EarlySlot: @unchecked Sendable {
        let lock = ThreadLock()
        var preload: ModelPreload?
    }

    private static let earlySlot = EarlySlot()

    /// Starts loading, before the command line is parsed, the model an analysis of `arguments`
    /// (the command line without the program name) would most likely use: the `--model` value
    /// when there is one, else the default. Only for the subcommands that analyse inputs
    /// (`analyze`, `gate`, `compare`); does nothing for the others.
    ///
    /// Parsing the command line takes the main thread 4–5 ms (argument-parser reflects over the
    /// command's options, and the Swift runtime scans the binary's 10,000 conformance records
    /// for each new type it meets); decoding the model takes 5–6 ms. Begun together they run
    /// on both cores, instead of the model taking a core from a capture's reading threads or,
    /// for a short input, being waited for after its import.
    public static func startEarly(arguments: [String]) {
        guard let command = arguments.first, ["analyze", "gate", "compare"].contains(command) else { return }
        let name = modelName(in: arguments.dropFirst()) ?? ModelCatalog.defaultName
        let preload = ModelPreload(name: name)
        let replaced = earlySlot.lock.withLock {
            defer { earlySlot.preload = preload }
            return earlySlot.preload
        }
        replaced?.finish()
        // A run that ends before an analysis takes the preload (help, a usage error) must not
        // exit while the loading thread runs: the process's exit waits for it.
        atexit { ModelPreload.finishEarly() }
    }

    /// Waits for the preload started early, if no analysis took it.
    private static func finishEarly() {
        let untaken = earlySlot.lock.withLock {
            defer { earlySlot.preload = nil }
            return earlySlot.preload
        }
        untaken?.finish()
    }

    /// The value of the last `--model` option in `arguments`, as argument-parser reads it
    /// (`--model NAME` or `--model=NAME`); nil when there is none or it has no value. Only a
    /// guess: a wrong one costs a model loaded for nothing, never a wrong model.
    static func modelName(in arguments: ArraySlice<String>) -> String? {
        var name: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--model" {
                let next = arguments.index(after: index)
                name = next < arguments.endIndex ? arguments[next] : nil
                index = next
            } else if argument.hasPrefix("--model=") {
                name = String(argument.dropFirst("--model=".count))
            }
            if index < arguments.endIndex { index = arguments.index(after: index) }
        }
        return name
    }

    /// A preload of `name`: the one started early if it loads `name` (once), else a new one.
    static func starting(name: String) -> ModelPreload {
        takeEarly(named: name) ?? ModelPreload(name: name)
    }

    /// The preload started early, if it loads `name`; it is handed out once.
    static func takeEarly(named name: String) -> ModelPreload? {
        earlySlot.lock.withLock {
            guard let preload = earlySlot.preload, preload.name == name else { return nil }
            earlySlot.preload = nil
            return preload
        }
    }
}
