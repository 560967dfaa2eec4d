import DrainImport
import DrainPipeline
import DrainTestSupport
import Foundation
import Testing

@Suite struct ProgressMeterTests {
    @Test func lineShowsBytesShareRateAndTimeLeft() {
        // 400 MB of 1 GB in 2 s: 200 MB/s, 600 MB left = 3 s.
        let line = ProgressMeter.line(name: "big.pcap", bytesRead: 400_000_000, totalBytes: 1_000_000_000, elapsed: 2)
        #expect(line == "reading big.pcap: 400.0 MB of 1.00 GB (40 %), 200.0 MB/s, 3 s left")
    }

    @Test func redrawsAtMostOncePerIntervalAndClearsAtTheEnd() {
        nonisolated(unsafe) var clock = 0.0
        nonisolated(unsafe) var drawn: [String] = []
        let meter = ProgressMeter(name: "x", totalBytes: 1000, interval: 0.25, now: { clock }, write: { drawn.append($0) })
        clock = 0.1
        meter.update(bytesRead: 100)
        #expect(drawn.isEmpty)
        clock = 0.3
        meter.update(bytesRead: 300)
        clock = 0.4
        meter.update(bytesRead: 400)
        #expect(drawn.count == 1)
        // 300 B in 0.3 s: 1 KB/s; 700 B left: 0.7 s, shown rounded up.
        #expect(drawn[0] == "\rreading x: 300 B of 1.00 KB (30 %), 1.00 KB/s, 1 s left\u{1B}[K")
        meter.finish()
        #expect(drawn.last == "\r\u{1B}[K")
    }

    @Test func silentWhenTheImportIsQuick() {
        nonisolated(unsafe) var drawn: [String] = []
        let meter = ProgressMeter(name: "x", totalBytes: 10, now: { 0 }, write: { drawn.append($0) })
        meter.update(bytesRead: 10)
        meter.finish()
        #expect(drawn.isEmpty)
    }

    @Test func importerReportsEveryChunkUpToTheFileSize() throws {
        let sample = Repository.root.appendingPathComponent("samples/app-session.jsonl").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: sample)[.size] as? Int)
        nonisolated(unsafe) var reports: [Int64] = []
        _ = try Importers.read(path: sample, inputIndex: 0, progress: { reports.append($0) })
        #expect(!reports.isEmpty)
        #expect(reports == reports.sorted())
        #expect(reports.last == Int64(size))
    }
}
