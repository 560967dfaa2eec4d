import DrainTrace
import Yams

/// Parses YAML text into nodes for strict decoding.
public enum YAMLDocument {
    /// The root node of `text`, or `nil` for a document with no content (only comments).
    ///
    /// Refuses what a configuration file must not do silently: malformed YAML, several
    /// documents, duplicate keys in a mapping, and anchors and aliases (`&base`, `*base`,
    /// which would let one value stand for several). O(text).
    public static func parse(_ text: String) throws(YAMLError) -> Node? {
        let parser: Parser
        let root: Node?
        do {
            // No resolver patterns: `Node.hasTag` reads untagged scalars (`PlainScalarType`).
            parser = try Parser(yaml: text, resolver: .basic)
            root = try parser.singleRoot()
        } catch {
            throw syntaxError(error)
        }
        // Nodes hold their anchors weakly; the parser owns them, so it must outlive the check.
        let anchored = withExtendedLifetime(parser) { root.flatMap(firstAnchored) }
        if let anchored {
            throw YAMLError(
                .syntax, line: anchored.mark?.line, column: anchored.mark?.column,
                "anchors and aliases (&name, *name) are not accepted; write each value out")
        }
        return root
    }

    /// The first node, in document order, that carries an anchor (an alias resolves to the
    /// anchored node, so it is found at the anchor). O(nodes).
    private static func firstAnchored(_ node: Node) -> Node? {
        if node.anchor != nil { return node }
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                if let found = firstAnchored(key) ?? firstAnchored(value) { return found }
            }
        case .sequence(let sequence):
            for item in sequence {
                if let found = firstAnchored(item) { return found }
            }
        case .scalar, .alias:
            break
        }
        return nil
    }

    private static func syntaxError(_ error: any Error) -> YAMLError {
        guard let yamlError = error as? YamlError else {
            return YAMLError(.syntax, "invalid YAML (\(String(describing: error)))")
        }
        switch yamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return YAMLError(.syntax, line: mark.line, column: mark.column, "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { UntrustedText.quoted($0) }.joined(separator: ", ")
            return YAMLError(.syntax, line: context.mark.line, column: context.mark.column, "duplicate key \(keys)")
        case .reader(let problem, let offset, _, _):
            let place = offset.map { " at character \($0)" } ?? ""
            return YAMLError(.unreadable, "invalid text\(place): \(problem)")
        default:
            return YAMLError(.syntax, "invalid YAML (\(yamlError))")
        }
    }
}
