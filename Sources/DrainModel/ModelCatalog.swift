import DrainTrace
import Foundation
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
        return try parse(yaml: yaml, file: "built-in model \(name)")
    }

    /// Reads and validates a model file. At most `maximumFileBytes`, UTF-8.
    public static func load(path: String) throws(ModelError) -> DeviceModel {
        let file = UntrustedText.escaped(path)
        let data: Data
        do {
            let url = URL(fileURLWithPath: path)
            let size = try url.resourceValues(forKeys: [.fileSizeKey, .isDirectoryKey])
            if size.isDirectory == true {
                throw ModelError(file: file, problem: .unreadable, message: "is a directory, not a model file")
            }
            if let bytes = size.fileSize, bytes > maximumFileBytes {
                throw ModelError(
                    file: file, problem: .unreadable,
                    message: "the file has \(bytes) bytes; a model file has at most \(maximumFileBytes)")
            }
            data = try Data(contentsOf: url)
        } catch let error as ModelError {
            throw error
        } catch {
            throw ModelError(file: file, problem: .unreadable, message: "cannot read the file (\(Self.reason(error)))")
        }
        guard let yaml = String(data: data, encoding: .utf8) else {
            throw ModelError(file: file, problem: .unreadable, message: "the file is not UTF-8 text")
        }
        return try parse(yaml: yaml, file: file)
    }

    /// Parses and validates model YAML. `file` names the source in errors.
    public static func parse(yaml: String, file: String) throws(ModelError) -> DeviceModel {
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
        if let issue = model.consistencyIssue() {
            throw issue.error(file: file, root: root)
        }
        return model
    }

    private static func reason(_ error: any Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?, .fileNoSuchFile?: "no such file"
        case .fileReadNoPermission?: "permission denied"
        default: error.localizedDescription
        }
    }
}
