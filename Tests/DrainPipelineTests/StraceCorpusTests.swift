import DrainImport
import DrainModel
import DrainReport
import DrainRules
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// The polling loops of the strace corpus, imported, priced with a device model and judged by
/// the guidance rules: CPU-POLLING sees them and prices them.
@Suite struct StraceCorpusTests {
    static func corpusPath(_ name: String) -> String {
        Corpus.root.appendingPathComponent("strace/\(name)").path
    }

    static func evaluate(_ name: String, configuration: RuleConfiguration = RuleConfiguration()) throws -> (Timeline, DeviceModel, RuleEvaluation) {
        let model = try ModelCatalog.load(nameOrPath: "iphone-lte")
        let timeline = try StraceImporter.read(path: corpusPath(name)).timeline
        let evaluation = RuleEngine(model: model, configuration: configuration).evaluate(Pricer(model: model).price(timeline))
        return (timeline, model, evaluation)
    }

    static func evidence(_ finding: Finding, _ name: String) -> Double? {
        finding.evidence.first { $0.name == name }?.value
    }

    /// Python's `serve_forever(poll_interval=0.5)` wakes every 500 ms to check its socket.
    @Test func theHTTPServersPollLoopIsCPUPollingWithPricedEnergy() throws {
        let (timeline, model, evaluation) = try Self.evaluate("http_server.strace")
        let finding = try #require(evaluation.findings.first { $0.rule == "CPU-POLLING" })
        #expect(finding.severity == .warning)
        #expect(finding.evidence.first { $0.name == "source" }?.text == "poll(3)")
        let polls = try #require(Self.evidence(finding, "polls"))
        #expect(polls >= 10)
        #expect(polls <= Double((0..<timeline.count).filter { timeline.kind[$0] == .poll }.count))
        // The mean gap is the 500 ms timeout plus the little work between polls.
        let interval = try #require(Self.evidence(finding, "interval"))
        #expect(interval >= 0.5 && interval < 0.6)
        // Each poll costs one CPU wakeup: 3.95 mJ in this model.
        let energy = try #require(finding.energyJ)
        #expect(energy > 0)
        #expect(abs(energy - polls * model.cpu.wakeupJ.value) < 1e-12)
    }

    /// The bash loop sleeps `sleep 0.2` five times: five checks at a fixed interval, half of
    /// the rule's default `min_count` of 10 for a warning, so at the defaults it is info with
    /// its evidence and energy; told that five in a row are enough, a warning.
    @Test func theSleepLoopIsCPUPollingFromFiveChecks() throws {
        let (_, model, defaults) = try Self.evaluate("sleep_poll_loop.strace")
        let finding = try #require(defaults.findings.first { $0.rule == "CPU-POLLING" })
        #expect(finding.severity == .info)
        #expect(finding.evidence.first { $0.name == "source" }?.text == "sleep")
        #expect(Self.evidence(finding, "polls") == 5)
        let interval = try #require(Self.evidence(finding, "interval"))
        #expect(interval > 0.2 && interval < 0.25)
        // 5 wakeups × 3.95 mJ = 19.75 mJ.
        let energy = try #require(finding.energyJ)
        #expect(abs(energy - 5 * model.cpu.wakeupJ.value) < 1e-12)
        #expect(abs(energy - 0.01975) < 1e-9)

        let configuration = try RuleConfiguration.parse("rules:\n  CPU-POLLING: { min_count: 5 }\n", path: "five.yaml")
        let (_, _, evaluation) = try Self.evaluate("sleep_poll_loop.strace", configuration: configuration)
        let warning = try #require(evaluation.findings.first { $0.rule == "CPU-POLLING" })
        #expect(warning.severity == .warning && Self.evidence(warning, "polls") == 5)
    }

    /// Every corpus strace file analyses from the command line, or is refused naming it.
    @Test(arguments: Corpus.files(in: "strace"))
    func corpusStraceAnalysesOrIsRefusedCleanly(_ file: URL) throws {
        let result = try DrainCommand.run(["analyze", file.path, "--json", "-"])
        if result.status == 0 {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let inputs = try #require(object["inputs"] as? [[String: Any]])
            #expect(inputs.first?["format"] as? String == "strace")
            #expect((inputs.first?["events"] as? Int ?? 0) > 0)
        } else {
            #expect(result.status == 65, "\(file.lastPathComponent): \(result.standardError)")
            #expect(result.standardError.contains(file.path))
            #expect(result.standardOutput.isEmpty)
        }
    }
}
