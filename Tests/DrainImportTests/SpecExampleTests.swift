import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// The example in docs/trace-format.md is a valid trace and reads as the document says.
@Suite("Drain trace specification example")
struct SpecExampleTests {
    @Test("the example trace in docs/trace-format.md")
    func example() throws {
        let spec = try String(contentsOf: Repository.root.appendingPathComponent("docs/trace-format.md"), encoding: .utf8)
        let afterHeading = try #require(spec.range(of: "## Example\n\n```\n"))
        let end = try #require(spec.range(of: "\n```", range: afterHeading.upperBound..<spec.endIndex))
        let example = String(spec[afterHeading.upperBound..<end.lowerBound])

        let input = try importTrace(bytes: Array((example + "\n").utf8))
        let timeline = input.timeline
        #expect(input.info.diagnostics.isEmpty)
        #expect(input.info.process == "Weather" && input.info.deviceHint == "iphone-lte")
        #expect(timeline.count == 10)
        #expect(timeline.kind.first == .lifecycle && timeline.kind.last == .backgroundTask)
        let disk = try #require(timeline.kind.firstIndex(of: .disk))
        #expect(timeline.time[disk] == 2_000_000_001)
        let received = try #require(timeline.kind.lastIndex(of: .net))
        #expect(timeline.amount[received] == 18230 && timeline.code2[received] == LinkKind.cellular.rawValue)
    }
}
