import DrainPipeline
import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// The report of every file of the shared corpus that analyses, encoded by `ReportJSON`
/// (our `SortedJSONWriter`), is byte for byte what Foundation's `JSONEncoder` writes with the
/// same options: real reports, with their real host names, paths and numbers.
@Suite struct ReportJSONCorpusTests {
    static let inputs = ["pcap", "strace", "metrickit", "chrome-trace"].flatMap { Corpus.files(in: $0) }

    static func foundationJSON(_ report: Report, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    @Test func everyCorpusReportIsFoundationsBytes() throws {
        var compared = 0
        for input in Self.inputs {
            guard let report = try? Analysis.run(AnalysisOptions(inputs: [input.path])) else { continue }
            for pretty in [true, false] {
                let ours = try ReportJSON.encode(report, pretty: pretty)
                #expect(ours == (try Self.foundationJSON(report, pretty: pretty)), "\(input.lastPathComponent) pretty=\(pretty)")
            }
            compared += 1
        }
        // Most of the corpus analyses; the rest are files Drain refuses with an error by design.
        #expect(compared >= 80, "only \(compared) of \(Self.inputs.count) corpus files gave a report")
    }
}
