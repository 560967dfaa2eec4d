import DrainRules
import DrainTestSupport
import Foundation
import Testing

/// The rule registry (`RuleEngine.allRules`) against the documents that describe it, so that
/// adding a rule is its file, its examples and one registry line, and a rule that is
/// registered but not documented, or documented but not registered, fails here.
@Suite struct RuleRegistryTests {
    /// The ids of the registry, in catalogue order.
    let registered = RuleEngine.descriptions.map(\.id)

    @Test func everyRuleHasASectionInRulesDocumentAndEverySectionIsARule() throws {
        let sections = try Self.ruleSections()
        #expect(sections.map(\.id) == registered, "docs/rules.md sections, in catalogue order")
    }

    @Test func everySectionListsItsRuleParametersWithTheirDefaults() throws {
        let sections = try Self.ruleSections()
        for rule in RuleEngine.descriptions {
            guard let section = sections.first(where: { $0.id == rule.id }) else { continue }
            #expect(section.parameters.map(\.name) == rule.parameters.map(\.name), "\(rule.id) parameter table")
            for (documented, declared) in zip(section.parameters, rule.parameters) {
                #expect(documented.defaultValue == declared.defaultValue, "\(rule.id) \(declared.name) default")
            }
        }
    }

    @Test func guidanceCatalogueNamesExactlyTheRegisteredRules() throws {
        let url = Corpus.root.deletingLastPathComponent().appendingPathComponent("GUIDANCE.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        // Catalogue rows start with the id: `| NET-PERIODIC | ≥ 4 bursts … |`.
        let ids = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| ") else { return nil }
            let cell = line.dropFirst(2).prefix { $0 != " " }
            return Self.isRuleID(cell) ? String(cell) : nil
        }
        #expect(ids == registered, "GUIDANCE.md catalogue rows, in catalogue order")
    }

    /// Each rule lives in `Sources/DrainRules/Rules/<Type>.swift` and lists in its description
    /// every `RuleParameter` it declares, so that each one it reads can be set by `--config`.
    @Test func everyDeclaredParameterIsListedInTheDescription() throws {
        let folder = Repository.root.appendingPathComponent("Sources/DrainRules/Rules")
        for rule in RuleEngine.allRules {
            let file = folder.appendingPathComponent("\(rule).swift")
            let source = try String(contentsOf: file, encoding: .utf8)
            let declared = source.split(separator: "\n").compactMap { line -> String? in
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("static let "), text.contains("= RuleParameter(") else { return nil }
                return String(text.dropFirst("static let ".count).prefix { $0 != " " })
            }
            let list = try #require(source.range(of: "parameters: ["), "\(rule) lists its parameters")
            let listed = source[list.upperBound...].prefix { $0 != "]" }
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            #expect(declared == listed, "\(rule): declared parameters, in the order of the description")
            #expect(listed.count == rule.description.parameters.count, "\(rule)")
        }
    }

    /// A `## ID — title` section of docs/rules.md and the rows of its parameter table.
    struct Section {
        var id: String
        var parameters: [(name: String, defaultValue: Double?)]
    }

    static func ruleSections() throws -> [Section] {
        let url = Repository.root.appendingPathComponent("docs/rules.md")
        var sections: [Section] = []
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("## ") {
                let heading = line.dropFirst(3).prefix { $0 != " " }
                if isRuleID(heading) { sections.append(Section(id: String(heading), parameters: [])) }
                continue
            }
            // Parameter rows: | `min_bursts` | 3 | bursts |
            guard !sections.isEmpty, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            sections[sections.count - 1].parameters.append(
                (cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), Double(cells[1])))
        }
        return sections
    }

    /// `NET-PERIODIC`, `LIFE-BACKGROUND-TIME`: capitals in two or more parts joined by `-`.
    static func isRuleID(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isUppercase || $0.isNumber } }
    }
}
