import Foundation
import DrainTrace
import DrainYAML
import Yams

/// Finds, reads and validates device models: the built-in ones (the files of `models/`,
/// compiled in by `scripts/gen-builtin-models`, so `drain` works from any directory) and model
/// files given by path.
public enum ModelCatalog {
    /// The model used when none is chosen.
    public static let defaultName = "iphone-lte"

    /// Model files larger than this are refused before parsing.
    public static let maximumFileBytes = 1 << 20

    /// Names of the built-in models, sorted.
    public static var builtinNames: [String] { BuiltinModels.files.map(\.name) }

    /// The YAML text of a built-in model, exactly as in `models/NAME.yaml`.
    public static func builtinYAML(named name: String) -> String? {
        BuiltinModels.files.first { $0.name == name }?.yaml
    }

    /// Loads a built-in model by name (`iphone-lte`) or a model file by path.
    ///
    /// A built-in name wins over a file of the same name in the current directory; write
    /// `./iphone-lte` for the file. Anything with a `/`, a `.yaml`/`.yml` extension or naming an
    /// existing file is read as a path.
    public static func load(nameOrPath: String) throws(ModelError) -> DeviceModel {
        if builtinYAML(named: nameOrPath) != nil {
            return try load(builtin: nameOrPath)
        }
        let looksLikePath =
            nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml")
            || FileManager.default.fileExists(atPath: nameOrPath)
        guard looksLikePath else {
            throw ModelError(
                file: UntrustedText.escaped(nameOrPath), problem: .unknownModel,
                message: "unknown model: not a built-in model (\(builtinNames.joined(separator: ", "))) and no such file")
        }
        return try load(path: nameOrPath)
    }

    /// Loads a built-in model by name.
    public static func load(builtin name: String) throws(ModelError) -> DeviceModel {
        guard let yaml = builtinYAML(named: name) else {
            throw ModelError(
                file: UntrustedText.escaped(name), problem: .unknownModel,
                message: "unknown built-in model (expected one of \(builtinNames.joined(separator: ", ")))")
        }
        // Built-in models cannot change after the build, and the tests validate each of them:
        // the relations between their numbers are not checked again on every run.
        return try decode(yaml: yaml, file: "built-in model \(name)").model
    }

    /// Reads and validates a model file. At most `maximumFileBytes`, UTF-8.
    public static func load(path: String) throws(ModelError) -> DeviceModel {
        let file = UntrustedText.escaped(path)
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileRead.read(path: path, limit: maximumFileBytes)
        } catch {
            switch error {
            case let .unreadable(reason):
                let message = reason == "it is a directory" ? "is a directory, not a model file" : "cannot read the file (\(reason))"
                throw ModelError(file: file, problem: .unreadable, message: message)
            case let .tooLarge(size, limit):
                throw ModelError(
                    file: file, problem: .tooLarge,
                    message: "the file has \(size) bytes; a model file has at most \(BoundedFileRead.describe(limit: limit))")
            }
        }
        guard let yaml = String(validating: bytes, as: UTF8.self) else {
            throw ModelError(file: file, problem: .unreadable, message: "the file is not UTF-8 text")
        }
        return try parse(yaml: yaml, file: file)
    }

    /// Parses and validates model YAML. `file` names the source in errors.
    public static func parse(yaml: String, file: String) throws(ModelError) -> DeviceModel {
        let (model, root) = try decode(yaml: yaml, file: file)
        if let issue = model.consistencyIssue() {
            throw issue.error(file: file, root: root)
        }
        return model
    }

    /// Parses model YAML with the checks of its decoding (every number sourced, finite and not
    /// negative, no unknown key), not the relations between numbers (`consistencyIssue`, which
    /// lists the model's fields by encoding the whole model: a millisecond of a run's model
    /// load). Returns the document's root too, for errors that point into it.
    private static func decode(yaml: String, file: String) throws(ModelError) -> (model: DeviceModel, root: Node) {
        let document: Node?
        do {
            document = try YAMLDocument.parse(yaml)
        } catch {
            throw ModelError(error, file: file)
        }
        guard let root = document else {
            throw ModelError(file: file, problem: .syntax, message: "the file is empty; expected a model mapping")
        }
        let model: DeviceModel
        do {
            model = try StrictYAMLDecoder().decode(DeviceModel.self, from: root)
        } catch {
            throw ModelError(error, file: file)
        }
        return (model, root)
    }
}
