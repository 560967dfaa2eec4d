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
/// loaded on a thread of its own while the inputs are imported (started by `drain` before it
/// parses its command line: `startEarly`).
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
        private let lock = ThreadLock()
        private var preload: ModelPreload?

        /// Puts `new` in the slot and returns what it held.
        func exchange(_ new: ModelPreload?) -> ModelPreload? {
            lock.withLock {
                defer { preload = new }
                return preload
            }
        }

        /// Empties the slot if it holds a preload of `name`, and returns that preload.
        func take(named name: String) -> ModelPreload? {
            lock.withLock {
                guard let held = preload, held.name == name else { return nil }
                preload = nil
                return held
            }
        }
    }

    private static let earlySlot = EarlySlot()

    /// A run that ends before an analysis takes the early preload (help, a usage error) must
    /// not exit while its thread decodes: the process's exit waits for it. Registered once.
    private static let joinAtExit: Void = {
        atexit { ModelPreload.earlySlot.exchange(nil)?.finish() }
    }()

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
        joinAtExit
        let name = modelName(in: arguments.dropFirst()) ?? ModelCatalog.defaultName
        earlySlot.exchange(ModelPreload(name: name))?.finish()
    }

    /// The value of the last `--model` option in `arguments`, as argument-parser reads it
    /// (`--model NAME` or `--model=NAME`); nil when there is none or it has no value. Only a
    /// guess: a wrong one costs a model loaded for nothing, never a wrong model.
    static func modelName(in arguments: ArraySlice<String>) -> String? {
        var name: String?
        var rest = arguments
        while let argument = rest.popFirst(), argument != "--" {
            if argument == "--model" {
                name = rest.popFirst()
            } else if argument.hasPrefix("--model=") {
                name = String(argument.dropFirst("--model=".count))
            }
        }
        return name
    }

    /// A preload of `name`: the one started early if it loads `name` (once), else a new one.
    static func starting(name: String) -> ModelPreload {
        takeEarly(named: name) ?? ModelPreload(name: name)
    }

    /// The preload started early, if it loads `name`; it is handed out once.
    static func takeEarly(named name: String) -> ModelPreload? {
        earlySlot.take(named: name)
    }
}
