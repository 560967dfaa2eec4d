import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// The MetricKit importer on generated payloads and on the corpus.
@Suite struct MetricKitImporterTests {
    static func read(_ json: String) throws(ImportError) -> ImportedInput {
        try MetricKitImporter.read(bytes: Array(json.utf8), path: "payload.json")
    }

    static let metricPayload = """
        {
          "timeStampBegin": "2024-03-01 00:00:00 +0000",
          "timeStampEnd": "2024-03-02 00:00:00 +0000",
          "appVersion": "2.1",
          "metaData": {"osVersion": "iPhone OS 17.4", "deviceType": "iPhone15,2", "bundleIdentifier": "com.example.app"},
          "cpuMetrics": {"cumulativeCPUTime": "1,234 sec", "cumulativeCPUInstructions": "2,000 kiloinstructions"},
          "gpuMetrics": {"cumulativeGPUTime": "20 secs."},
          "applicationTimeMetrics": {"cumulativeForegroundTime": "2 hrs", "cumulativeBackgroundTime": "30 min"},
          "networkTransferMetrics": {"cumulativeWifiUpload": "1 MB", "cumulativeCellularDownload": "80,000 kB"},
          "diskIOMetrics": {"cumulativeLogicalWrites": "80,000 kB"},
          "memoryMetrics": {"peakMemoryUsage": "200,000 kB",
                            "averageSuspendedMemory": {"averageValue": "100,000 kB", "standardDeviation": 0, "sampleCount": 500}},
          "applicationResponsivenessMetrics": {"histogrammedAppHangTime": {"histogramNumBuckets": 2, "histogramValue": {
              "0": {"bucketCount": 50, "bucketStart": "0 ms", "bucketEnd": "100 ms"},
              "1": {"bucketCount": 3, "bucketStart": "400 ms", "bucketEnd": "700 ms"}}}},
          "applicationExitMetrics": {
              "foregroundExitData": {"cumulativeNormalAppExitCount": 4, "cumulativeMemoryResourceLimitExitCount": 1},
              "backgroundExitData": {"cumulativeMemoryResourceLimitExitCount": 2}},
          "newMetricsOfTheFuture": {"x": 1}
        }
        """

    @Test func aMetricPayloadMapsToAggregates() throws {
        let input = try Self.read(Self.metricPayload)
        let metrics = try #require(input.timeline.aggregates)
        #expect(input.timeline.isEmpty && input.timeline.isAggregatesOnly)
        #expect(input.info.format == "metrickit")
        #expect(metrics.metricPayloads == 1 && metrics.diagnosticPayloads == 0)
        #expect(metrics.metricSeconds == 86_400)
        #expect(input.timeline.end == 86_400 * 1_000_000_000)
        #expect(input.timeline.wallClockStart == metrics.windowStart)
        #expect(metrics.cpuTimeS == 1234)
        #expect(metrics.cpuInstructions == 2_000_000)
        #expect(metrics.gpuTimeS == 20)
        #expect(metrics.foregroundTimeS == 7200 && metrics.backgroundTimeS == 1800)
        #expect(metrics.backgroundAudioTimeS == nil, "absent is not zero")
        #expect(metrics.wifiUpBytes == 1_000_000 && metrics.cellularDownBytes == 80_000_000)
        #expect(metrics.wifiDownBytes == nil && metrics.cellularUpBytes == nil)
        #expect(metrics.logicalWriteBytes == 80_000_000)
        #expect(metrics.peakMemoryBytes == 200_000_000)
        #expect(metrics.averageSuspendedMemoryBytes == 100_000_000 && metrics.suspendedMemorySamples == 500)
        #expect(metrics.hangTime?.count == 53 && metrics.hangTime?.count(atLeast: 0.25) == 3)
        #expect(metrics.hangTime?.maximumS == 0.7)
        #expect(metrics.exits("MemoryResourceLimit") == .init(reason: "MemoryResourceLimit", foreground: 1, background: 2))
        #expect(metrics.exits("Normal") == .init(reason: "Normal", foreground: 4))
        #expect(metrics.metadata.appVersion == "2.1" && metrics.metadata.deviceType == "iPhone15,2")
        #expect(input.info.process == "com.example.app")
        let unknown = try #require(input.info.diagnostics.entries.first { $0.code == "unknown-keys" })
        #expect(unknown.severity == .info && unknown.message.contains("newMetricsOfTheFuture"))
        #expect(unknown.location == "line 19, column 28")
    }

    @Test func aDiagnosticPayloadAndBareDiagnostics() throws {
        let payload = try Self.read("""
            {"timeStampBegin": "2022-03-07 07:30:54", "timeStampEnd": "2022-03-07 07:30:54",
             "hangDiagnostics": [{"diagnosticMetaData": {"hangDuration": "20 sec"}}],
             "diskWriteExceptionDiagnostics": [{"diagnosticMetaData": {"writesCaused": "2,000 byte"}}],
             "cpuExceptionDiagnostics": [{"diagnosticMetaData": {"totalCPUTime": "20 secs.", "totalSampledTime": "1 min"}}],
             "crashDiagnostics": [{"diagnosticMetaData": {"exceptionType": 1, "signal": 11, "terminationReason": "Namespace SIGNAL"}}],
             "appLaunchDiagnostics": [{"diagnosticMetaData": {"launchDuration": "3,500 ms"}}]}
            """)
        let metrics = try #require(payload.timeline.aggregates)
        #expect(metrics.diagnosticPayloads == 1 && metrics.metricPayloads == 0)
        #expect(metrics.hangs == [.init(durationS: 20)])
        #expect(metrics.diskWriteExceptions == [.init(writesCausedBytes: 2000)])
        #expect(metrics.cpuExceptions == [.init(totalCPUTimeS: 20, totalSampledTimeS: 60)])
        #expect(metrics.crashes == [.init(exceptionType: 1, signal: 11, terminationReason: "Namespace SIGNAL")])
        #expect(metrics.launches == [.init(durationS: 3.5)])
        let noZone = try #require(payload.info.diagnostics.entries.first { $0.code == "no-time-zone" })
        #expect(noZone.count == 2 && noZone.location == "line 1, column 20")

        let bare = try Self.read(#"{"version": "1.0.0", "diagnosticMetaData": {"hangDuration": "3 sec"}, "callStackTree": {}}"#)
        #expect(bare.timeline.aggregates?.hangs == [.init(durationS: 3)])
        let array = try Self.read("[\(Self.metricPayload), \(Self.metricPayload)]")
        #expect(array.timeline.aggregates?.metricPayloads == 2)
        #expect(array.timeline.aggregates?.logicalWriteBytes == 160_000_000)
    }

    @Test func unreadableValuesAreWarningsWithTheirLocation() throws {
        let input = try Self.read("""
            {"timeStampBegin": "2024-03-01 00:00:00 +0000",
             "cpuMetrics": {"cumulativeCPUTime": "lots"}, "diskIOMetrics": {"cumulativeLogicalWrites": "5 parsecs"}}
            """)
        let unreadable = try #require(input.info.diagnostics.entries.first { $0.code == "unreadable-value" })
        #expect(unreadable.severity == .warning && unreadable.count == 2)
        #expect(unreadable.location == "line 2, column 38")
        #expect(input.timeline.aggregates?.cpuTimeS == nil && input.timeline.aggregates?.logicalWriteBytes == nil)
    }

    @Test(arguments: [
        ("{\"timeStampBegin\": \"2024-03-01\",\n \"cpuMetrics\": {\"cumulativeCPUTime\": \"1 sec\" \"x\": 1}}", "line 2, column 46"),
        ("{\"cpuMetrics\": {\"cumulativeCPUTime\": \"1 sec\"", "line 1, column 45"),
        ("{\"cpuMetrics\": {}} trailing", "line 1, column 20"),
        ("", "line 1, column 1"),
    ])
    func badJSONNamesTheFileAndLine(_ json: String, _ location: String) {
        #expect(throws: ImportError.self) { try Self.read(json) }
        do {
            _ = try Self.read(json)
        } catch {
            guard case let .badData(path, found, _) = error else {
                Issue.record("expected bad data, got \(error)")
                return
            }
            #expect(path == "payload.json")
            #expect(found == location)
        }
    }

    @Test func notAPayloadIsRefused() throws {
        for json in [#"{"callStacks": [], "callStackPerThread": true}"#, #"{"hello": 1}"#, "[]", "[1]", "42"] {
            do {
                _ = try Self.read(json)
                Issue.record("\(json) was accepted")
            } catch {
                guard case let .badData(_, location, reason) = error else {
                    Issue.record("\(json): \(error)")
                    continue
                }
                #expect(location != nil)
                if json.contains("callStacks") { #expect(reason.contains("MXCallStackTree")) }
            }
        }
    }

    @Test func sniffingFindsMetricKitButNotChromeOrDrainTraces() {
        func sniff(_ text: String) -> InputFormat? { Importers.importer(recognizing: Array(text.utf8))?.format }
        #expect(sniff(Self.metricPayload) == .metrickit)
        #expect(sniff(#"{"version": "1.0.0", "callStackTree": {}, "diagnosticMetaData": {}}"#) == .metrickit)
        #expect(sniff(#"{"traceEvents": [], "metaData": {"cpuMetrics": 1}}"#) == .chromeTrace)
        #expect(sniff(#"[{"ph": "X", "name": "timeStampBegin"}]"#) == .chromeTrace)
        #expect(sniff("{\"drain_trace\": 1, \"cpuMetrics\": 2}\n") == .drainTrace)
    }

    @Test func everyCorpusFileImportsOrIsRefusedByName() throws {
        let files = Corpus.files(in: "metrickit")
        #expect(files.count >= 14)
        for file in files {
            do {
                let input = try Importers.read(path: file.path, inputIndex: 0)
                #expect(input.info.format == "metrickit", "\(file.lastPathComponent)")
                #expect(input.timeline.aggregates != nil)
            } catch {
                guard case let .badData(path, _, reason) = error else {
                    Issue.record("\(file.lastPathComponent): \(error)")
                    continue
                }
                #expect(path == file.path)
                #expect(reason.contains("MXCallStackTree"), "\(file.lastPathComponent): \(reason)")
            }
        }
    }
}
