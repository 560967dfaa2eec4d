import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Every Chrome trace of the shared corpus imports, or is refused with bad data naming the
/// file; none crashes. Some files are checked against what their MANIFEST entry says.
@Suite struct ChromeCorpusTests {
    static func corpusFile(_ name: String) -> String {
        Corpus.root.appendingPathComponent("chrome-trace/\(name)").path
    }

    @Test func everyCorpusTraceImportsOrIsRefusedByName() throws {
        let files = Corpus.files(in: "chrome-trace")
        #expect(files.count >= 25, "the corpus holds the Chrome traces of its MANIFEST")
        for file in files {
            let path = file.path
            let result = Result { () throws(ImportError) in try Importers.read(path: path, inputIndex: 0) }
            switch result {
            case let .success(input):
                #expect(input.info.format == "chrome-trace", "\(file.lastPathComponent)")
                #expect(input.info.events == input.timeline.count)
                #expect(input.timeline.time.allSatisfy { $0 >= 0 }, "\(file.lastPathComponent): times start at zero")
                #expect(input.timeline.isSorted)
            case let .failure(error):
                guard case let .badData(errorPath, _, _) = error else {
                    Issue.record("\(file.lastPathComponent): \(error)")
                    continue
                }
                #expect(errorPath == path)
            }
        }
    }

    @Test func unterminatedArraysAreAllowed() throws {
        for name in ["speedscope__simple-partial.json", "speedscope__simple-partial-whitespace.json"] {
            let partial = try ChromeTraceImporter.read(path: Self.corpusFile(name))
            let complete = try ChromeTraceImporter.read(path: Self.corpusFile("speedscope__simple.json"))
            #expect(partial.timeline.rows(.cpu, .mark) == complete.timeline.rows(.cpu, .mark), "\(name)")
            #expect(partial.info.diagnostics.entry("unterminated")?.severity == .info, "\(name)")
        }
    }

    @Test func aRealChromeTraceWithUnclosedSlices() throws {
        // MANIFEST: 1684 B, 1680 E and 22 M events; 4 slices never closed.
        let input = try ChromeTraceImporter.read(path: Self.corpusFile("catapult__main_thread_has_unclosed_slices.json"))
        #expect(input.info.diagnostics.entry("unclosed-slices")?.count == 4)
        // Every B became a slice: the outermost are CPU time, the nested ones marks (the file
        // has no instants, so every mark is a nested slice).
        let nested = try #require(input.info.diagnostics.entry("nested-slices")).count
        #expect(input.timeline.rows(.mark).count == nested)
        #expect(input.timeline.rows(.cpu, .gpu).count + nested == 1684)
        #expect(input.timeline.rows(.cpu).contains { $0.thread == "main" })
    }

    @Test func fractionalMicrosecondsAreKeptToTheNanosecond() throws {
        // catapult's displayTimeUnit "ns" file: ts stays microseconds, with fractions.
        let input = try ChromeTraceImporter.read(path: Self.corpusFile("catapult__nanoseconds.json"))
        let slices = input.timeline.rows(.cpu)
        #expect(slices.count == 8)
        #expect(slices.first { $0.label == "us1" }.map { [$0.time, $0.duration] } == [0, 1_100])
        #expect(slices.first { $0.label == "ns1" }.map { [$0.time, $0.duration] } == [3_000, 11])
        #expect(slices.first { $0.label == "ns4" }.map { [$0.time, $0.duration] } == [3_017, 4])
    }

    @Test func aChromeDevToolsRecordingNamesTheRendererProcess() throws {
        let input = try ChromeTraceImporter.read(path: Self.corpusFile("speedscope__chrome69-simple.json"))
        #expect(input.info.process == "Renderer")
        #expect(input.timeline.rows(.cpu).contains { $0.thread == "main" })
        #expect(input.info.diagnostics.entry("ignored-events") != nil)
    }

    @Test func numbersWrittenAsStringsAndObjectFormExtrasAreRead() throws {
        // Hermes writes "ts" as a string and adds "samples" and "stackFrames" to the object.
        let input = try ChromeTraceImporter.read(path: Self.corpusFile("speedscope__multi-thread-with-samples.json"))
        #expect(input.info.process == "hermes")
        #expect(input.timeline.rows(.cpu).count == 2)
    }
}
