import DrainRules
import DrainTestSupport
import Foundation
import Testing

@Suite struct RuleConfigurationTests {
    func rejection(_ yaml: String) -> RuleConfigurationError? {
        do {
            _ = try RuleConfiguration.parse(yaml, path: "rules.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func readsEnabledFlagsAndParameters() throws {
        let config = try configuration(
            """
            rules:
              CPU-WAKEUPS:
                enabled: true
                foreground_per_s: 3
                background_per_s: 0.5
              DISK-FREQUENT: { enabled: false }
              MEM-PEAK:
            """)
        #expect(config.isEnabled("CPU-WAKEUPS") && config.isEnabled("MEM-PEAK") && config.isEnabled("CPU-POLLING"))
        #expect(!config.isEnabled("DISK-FREQUENT"))
        #expect(config.value(rule: "CPU-WAKEUPS", parameter: "foreground_per_s") == 3)
        #expect(config.value(rule: "CPU-WAKEUPS", parameter: "background_per_s") == 0.5)
        #expect(config.value(rule: "CPU-WAKEUPS", parameter: "min_state_s") == nil)
        #expect(config.path == "test.yaml")
    }

    @Test func emptyDocumentsChangeNothing() throws {
        #expect(try configuration("").rules.isEmpty)
        #expect(try configuration("# nothing yet\nrules:\n").rules.isEmpty)
    }

    @Test func unknownRuleIdsAreNamedWithTheirPosition() throws {
        let error = try #require(rejection("rules:\n  CPU-WAKEUPS: {}\n  NET-TELEPATHY: { enabled: false }\n"))
        #expect(error.kind == .unknownRule)
        #expect(error.line == 3 && error.column == 3)
        #expect(error.description.hasPrefix("rules.yaml:3:3: unknown rule id \"NET-TELEPATHY\""))
        #expect(error.message.contains("CPU-POLLING"))
    }

    @Test func unknownParametersAreNamedWithTheRulesParameters() throws {
        let error = try #require(rejection("rules:\n  MEM-PEAK: { warning_share: 0.7, warn_share: 0.9 }\n"))
        #expect(error.kind == .unknownParameter)
        #expect(error.line == 2)
        #expect(error.message.contains("\"warn_share\"") && error.message.contains("MEM-PEAK"))
        #expect(error.message.contains("warning_share, error_share"))
    }

    @Test(arguments: ["\"3\"", "three", "true", "[1, 2]", "-1", ".inf", ".nan", "{ a: 1 }"])
    func parametersMustBeFiniteNonNegativeNumbers(_ value: String) throws {
        let error = try #require(rejection("rules:\n  CPU-POLLING:\n    min_count: \(value)\n"))
        #expect(error.kind == .invalidValue)
        #expect(error.line == 3 && error.column == 16)
        #expect(error.message.contains("CPU-POLLING min_count must be a finite number"))
    }

    @Test func enabledMustBeABoolean() throws {
        let error = try #require(rejection("rules: { MEM-PEAK: { enabled: 1 } }"))
        #expect(error.kind == .invalidValue)
        #expect(error.message.contains("`enabled` of MEM-PEAK"))
    }

    @Test func theShapeIsChecked() throws {
        #expect(rejection("- CPU-WAKEUPS")?.kind == .structure)
        #expect(rejection("rule: {}")?.kind == .structure)
        #expect(rejection("rules: [CPU-WAKEUPS]")?.kind == .structure)
        #expect(rejection("rules: { CPU-WAKEUPS: 3 }")?.kind == .structure)
    }

    @Test func yamlSyntaxErrorsCarryTheirPosition() throws {
        let error = try #require(rejection("rules:\n  CPU-WAKEUPS: { foreground_per_s: 3\n"))
        #expect(error.kind == .syntax)
        #expect(error.line != nil)
        #expect(error.description.hasPrefix("rules.yaml:"))
        let duplicate = try #require(rejection("rules:\n  MEM-PEAK: {}\n  MEM-PEAK: {}\n"))
        #expect(duplicate.kind == .syntax)
        #expect(duplicate.message.contains("\"MEM-PEAK\""))
    }

    @Test func untrustedNamesAreEscapedInMessages() throws {
        let error = try #require(rejection("rules: { \"EVIL\\e[31m\": {} }"))
        #expect(error.message.contains("\"EVIL\\u001B[31m\""))
        #expect(!error.message.contains("\u{1B}"))
    }

    @Test func loadsAFileAndNamesItInErrors() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.yaml")
        try "rules:\n  CPU-POLLING: { min_count: 5 }\n".write(to: good, atomically: true, encoding: .utf8)
        let config = try RuleConfiguration.load(path: good.path)
        #expect(config.value(rule: "CPU-POLLING", parameter: "min_count") == 5)
        #expect(config.path == good.path)

        let bad = directory.appendingPathComponent("bad.yaml")
        try "rules:\n  CPU-POLLING: { min_count: many }\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: RuleConfigurationError.self) { try RuleConfiguration.load(path: bad.path) }
        do {
            _ = try RuleConfiguration.load(path: bad.path)
        } catch {
            #expect(error.path == bad.path && error.line == 2)
        }

        let missing = directory.appendingPathComponent("missing.yaml").path
        do {
            _ = try RuleConfiguration.load(path: missing)
            Issue.record("a missing file must not load")
        } catch {
            #expect(error.kind == .unreadable && error.isUnreadable && error.description.hasPrefix(missing))
        }

        let binary = directory.appendingPathComponent("binary.yaml")
        try Data([0x72, 0xFF, 0xFE, 0x00]).write(to: binary)
        #expect(throws: RuleConfigurationError.self) { try RuleConfiguration.load(path: binary.path) }
    }
}
