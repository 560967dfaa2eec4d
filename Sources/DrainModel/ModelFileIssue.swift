import DrainTrace
import Yams

/// A problem found while decoding or checking a model, before the file name is known:
/// `ModelCatalog` turns it into a `ModelError`.
struct ModelFileIssue: Error {
    /// Key names from the document root to the offending value.
    var path: [String]
    var mark: Mark?
    var problem: ModelError.Problem
    var message: String

    init(_ problem: ModelError.Problem, at path: [String], mark: Mark? = nil, _ message: String) {
        self.problem = problem
        self.path = path
        self.mark = mark
        self.message = message
    }

    /// The issue as a `ModelError` of `file`. When the issue has no position of its own, the
    /// position of the deepest node of `root` along its key path is used.
    func error(file: String, root: Node?) -> ModelError {
        let position = mark ?? root.flatMap { Self.deepestMark(along: path, in: $0) }
        return ModelError(
            file: file, line: position?.line, column: position?.column,
            keyPath: path.map(UntrustedText.escaped).joined(separator: "."),
            problem: problem, message: message)
    }

    private static func deepestMark(along path: [String], in root: Node) -> Mark? {
        var node = root
        var mark = root.mark
        for key in path {
            guard let child = node.mapping?[key] else { break }
            node = child
            mark = child.mark ?? mark
        }
        return mark
    }
}
