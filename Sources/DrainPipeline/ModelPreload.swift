import DrainModel
import DrainTrace

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
final class ModelPreload: @unchecked Sendable {
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
