import DrainGate
import DrainImport
import DrainPipeline
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// Every metric a report holds can be gated, in the unit the report gives it.
@Suite struct MetricCatalogTests {
    static let inputs = [
        Repository.root.appendingPathComponent("samples/app-session.jsonl").path,
        Corpus.root.appendingPathComponent("pcap/ndpi__iphone.pcap").path,
        Corpus.root.appendingPathComponent("strace/http_server.strace").path,
    ]

    @Test(arguments: inputs)
    func everyReportMetricIsInTheCatalogWithItsUnit(path: String) throws {
        let report = try Analysis.run(AnalysisOptions(inputs: [path], capture: CaptureOptions(link: .wifi)))
        #expect(!report.metrics.isEmpty)
        for (name, metric) in report.metrics {
            let definition = try #require(MetricCatalog.definition(name), "\(name) cannot be gated")
            #expect(definition.unit.rawValue == metric.unit, "\(name): \(definition.unit.rawValue) vs \(metric.unit)")
            #expect(MetricCatalog.value(definition, in: report) == metric.value)
        }
        let values = MetricCatalog.values(in: report)
        #expect(Set(report.metrics.keys).isSubset(of: values.keys))
        #expect(values["scores.guidance"] == report.scores.guidance)
        #expect(values["memory.warnings"] == Double(report.memory.warnings))
    }

    @Test func namesOutsideTheCatalogAreRefused() {
        for name in ["energy.total", "energy.by_category.gpu", "network.bluetooth.bytes_up", "radio.time_s.cellular.sleep", "findings.fatal", "duration_s", ""] {
            #expect(MetricCatalog.definition(name) == nil, "\(name)")
        }
    }

    @Test func absentRadioStatesAndLinksCountAsZeroButAbsentMemoryIsUnmeasured() throws {
        var report = ReportFixture.realistic
        report.metrics = [:]
        #expect(MetricCatalog.value(try #require(MetricCatalog.definition("radio.time_s.wifi.tail")), in: report) == 0)
        #expect(MetricCatalog.value(try #require(MetricCatalog.definition("network.wifi.bytes_up")), in: report) == 0)
        #expect(MetricCatalog.value(try #require(MetricCatalog.definition("memory.peak_bytes")), in: report) == nil)
        #expect(MetricCatalog.definition("scores.energy")?.higherIsWorse == false)
    }
}
