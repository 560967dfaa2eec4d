import DrainPipeline
import DrainTestSupport
import Foundation
import Testing

/// Every MetricKit file of the shared corpus through the built `drain analyze`: each is
/// analysed (exit 0) or refused with exit 65 and a message naming the file; none crashes.
@Suite struct MetricKitCorpusTests {
    static func analyze(_ name: String) throws -> (CommandResult, [String: Any]?) {
        let path = Corpus.root.appendingPathComponent("metrickit/\(name)").path
        let result = try DrainCommand.run(["analyze", path, "--json", "-"])
        let json = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return (result, json)
    }

    static func findings(_ report: [String: Any]?) -> [(rule: String, severity: String)] {
        (report?["findings"] as? [[String: Any]] ?? []).map { ($0["rule"] as? String ?? "", $0["severity"] as? String ?? "") }
    }

    @Test func everyCorpusFileAnalysesOrIsRefusedWithExit65() throws {
        let files = Corpus.files(in: "metrickit")
        #expect(files.count >= 14)
        for file in files {
            let (result, report) = try Self.analyze(file.lastPathComponent)
            switch result.status {
            case 0:
                #expect(report?["metrickit"] is [String: Any], "\(file.lastPathComponent)")
            case 65:
                #expect(result.standardError.contains(file.path), "\(file.lastPathComponent)")
                #expect(result.standardError.contains("MXCallStackTree"), "\(file.lastPathComponent)")
            default:
                Issue.record("\(file.lastPathComponent): exit \(result.status): \(result.standardError)")
            }
        }
    }

    @Test func theXcodeSimulatedDiagnosticPayloadIsADiskAndAMainThreadError() throws {
        for name in ["meter__xcode_simulated.json", "meter__xcode_simulated_macOS_12.json"] {
            let (result, report) = try Self.analyze(name)
            #expect(result.status == 0, "\(name)")
            let findings = Self.findings(report)
            #expect(findings.contains { $0 == ("DISK-VOLUME", "error") }, "\(name)")
            #expect(findings.contains { $0 == ("CPU-MAIN-THREAD", "error") }, "\(name)")
            let metrickit = try #require(report?["metrickit"] as? [String: Any])
            let exceptions = try #require(metrickit["disk_write_exceptions"] as? [[String: Any]])
            #expect(exceptions.first?["writes_caused_bytes"] as? Double == 2000)
            // Rules that need events say so rather than pass.
            let rules = report?["rules"] as? [[String: Any]] ?? []
            let polling = try #require(rules.first { $0["id"] as? String == "CPU-POLLING" })
            #expect(polling["status"] as? String == "not_applicable")
            #expect((polling["reason"] as? String)?.contains("MetricKit payloads are aggregates") == true)
            // Nothing was priced, so there is no energy score to give (not a perfect 100).
            let scores = try #require(report?["scores"] as? [String: Any])
            #expect(scores["energy"] == nil && scores["guidance"] is Double)
        }
    }

    @Test func theNSHipsterMetricPayloadsNumbers() throws {
        let (result, report) = try Self.analyze("nshipster__metrickit-2019-10-21_metric_payload.json")
        #expect(result.status == 0)
        let metrickit = try #require(report?["metrickit"] as? [String: Any])
        // "1,300 kB" of logical writes, "100 sec" of CPU, "200,000 kB" peak memory.
        #expect(metrickit["logical_write_bytes"] as? Double == 1_300_000)
        #expect(metrickit["cpu_time_s"] as? Double == 100)
        #expect(metrickit["peak_memory_bytes"] as? Double == 200_000_000)
        // 2019-10-21 07:00:00 to 2019-10-22 06:59:00 is 86,340 s; 1.3 MB × 86,400 / 86,340 is
        // about 1.3 MB a day, far below 1 GB: no DISK-VOLUME finding.
        #expect(metrickit["metric_s"] as? Double == 86_340)
        let findings = Self.findings(report)
        #expect(!findings.contains { $0.rule == "DISK-VOLUME" })
        // 80,000 + 70,000 kB over cellular is 150 MB, above NET-CELLULAR's 5 MB.
        #expect(findings.contains { $0 == ("NET-CELLULAR", "warning") })
        // 30 hangs in the 400-700 ms bucket, above the 250 ms hang threshold.
        #expect(findings.contains { $0 == ("CPU-MAIN-THREAD", "error") })
    }

    /// A payload of 2019 analysed with a trace of 2026: the run is the trace's, not seven
    /// years long, and the aggregate findings sit inside it.
    @Test func aPayloadBesideATraceKeepsTheTracesClock() throws {
        let sample = Repository.root.appendingPathComponent("samples/app-session.jsonl").path
        let payload = Corpus.root.appendingPathComponent("metrickit/nshipster__metrickit-2019-10-21_metric_payload.json").path
        let alone = try Analysis.run(AnalysisOptions(inputs: [sample]))
        let both = try Analysis.run(AnalysisOptions(inputs: [payload, sample]))
        #expect(both.durationS == alone.durationS)
        #expect(both.energy.totalJ == alone.energy.totalJ)
        #expect(both.metrickit?.cpuTimeS == 100)
        let cellular = try #require(both.findings.first { $0.rule == "NET-CELLULAR" })
        #expect(cellular.timeRanges.allSatisfy { $0.startS >= 0 && $0.endS <= both.durationS })
    }
}
