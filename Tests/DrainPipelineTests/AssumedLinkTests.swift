import DrainImport
import DrainPipeline
import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// GUIDANCE.md, *Local traffic*: when the link was not given and the model's default was
/// assumed, the report summary and every network finding say which, and how to change it.
@Suite struct AssumedLinkTests {
    let capture = Corpus.root.appendingPathComponent("pcap/ndpi__iphone.pcap").path
    let statement = "priced as cellular (LTE), the model's default: pass --link wifi if this was Wi-Fi"

    @Test func aCaptureWithoutInterfaceNamesSaysItsLinkWasAssumed() throws {
        let report = try Analysis.run(AnalysisOptions(inputs: [capture]))
        #expect(report.inputs[0].linkSource == "default")
        let assumed = try #require(report.assumedLink)
        #expect(assumed.link == "cellular" && assumed.technology == "LTE" && assumed.statement == statement)
        // Every byte of the capture is on the assumed link, except local traffic (on Wi-Fi).
        let cellular = (report.metrics["network.cellular.bytes_up"]?.value ?? 0) + (report.metrics["network.cellular.bytes_down"]?.value ?? 0)
        #expect(Double(assumed.bytes) == cellular)
        let network = report.findings.filter { $0.area == .network }
        #expect(!network.isEmpty)
        #expect(network.allSatisfy { $0.message.hasSuffix(" Traffic without a known link was \(statement).") })
        #expect(report.findings.filter { $0.area != .network }.allSatisfy { !$0.message.contains(statement) })
        #expect(TerminalReportRenderer.render(report, color: false).contains("Network   "))
        #expect(MarkdownReportRenderer.render(report).contains("| Network link |"))
        #expect(try HTMLReportRenderer.render(report).contains("cellular (assumed)"))
    }

    @Test func aGivenLinkIsNotAnAssumption() throws {
        let report = try Analysis.run(AnalysisOptions(inputs: [capture], capture: CaptureOptions(link: .wifi)))
        #expect(report.inputs[0].linkSource == "option")
        #expect(report.assumedLink == nil)
        #expect(report.findings.allSatisfy { !$0.message.contains("the model's default") })
    }

    @Test func aWiFiModelAssumesWiFi() throws {
        let report = try Analysis.run(AnalysisOptions(inputs: [capture], model: "iphone-wifi"))
        #expect(report.assumedLink?.statement == "priced as Wi-Fi, the model's default: pass --link cellular if this was cellular")
    }

    @Test func theSampleStatesItsLinks() throws {
        let report = try Analysis.run(AnalysisOptions(inputs: [Repository.root.appendingPathComponent("samples/app-session.jsonl").path]))
        #expect(report.assumedLink == nil)
        #expect(report.inputs[0].linkSource == nil)
    }
}
