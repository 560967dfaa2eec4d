import DrainTrace
import Testing

@testable import DrainImport

/// A large plain trace is parsed in two halves on two threads; whatever the file holds, the
/// result must be what one pass gives: the same rows, strings, diagnostics (with line
/// numbers counted through the whole file) and errors.
@Suite("Drain trace read in two halves")
struct HalvesTests {
    /// Event lines of every payload shape, with hosts, threads and paths drawn from small
    /// sets so that both halves intern the same strings and some of their own.
    static func eventLines(count: Int, from first: Int = 0) -> [String] {
        (first..<first + count).map { index in
            let time = Double(index) * 0.01
            switch index % 5 {
            case 0:
                return #"{"t":\#(time),"type":"net","dir":"tx","bytes":\#(100 + index),"host":"h\#(index % 37).example","conn":"c\#(index % 11)","thread":"t\#(index % 3)"}"#
            case 1:
                return #"{"t":\#(time),"type":"cpu","dur":0.002,"name":"work \#(index % 13)","thread":"main"}"#
            case 2:
                return #"{"t":\#(time),"type":"disk","op":"write","bytes":4096,"path":"Caches/f\#(index % 29).bin"}"#
            case 3:
                return #"{"t":\#(time),"type":"memory","footprint":\#(1_000_000 + index)}"#
            default:
                return #"{"t":\#(time),"type":"wakeup","reason":"timer","source":"src \#(index % 7)"}"#
            }
        }
    }

    /// The trace read in halves (which must happen) and in one pass.
    static func readBoth(_ text: String) throws -> (halves: ImportedInput, onePass: ImportedInput) {
        let fixture = try TraceFixture(text)
        defer { fixture.remove() }
        let halves = try DrainTraceImporter.readInHalves(
            path: fixture.path, inputIndex: 0, chunkSize: 61, minimumSize: 0, progress: nil)
        #expect(halves != nil, "the file was not split")
        let onePass = try DrainTraceImporter.read(path: fixture.path, inputIndex: 0, chunkSize: 61)
        return (try #require(halves), onePass)
    }

    /// Rows compared by value with strings as text; the description of the input as it is.
    static func expectSame(_ input: ImportedInput, _ reference: ImportedInput) {
        let timeline = input.timeline, expected = reference.timeline
        #expect(timeline.count == expected.count)
        for row in 0..<min(timeline.count, expected.count) {
            var event = timeline[row], wanted = expected[row]
            #expect(timeline.text(event.label) == expected.text(wanted.label), "row \(row)")
            #expect(timeline.text(event.label2) == expected.text(wanted.label2), "row \(row)")
            #expect(timeline.text(event.thread) == expected.text(wanted.thread), "row \(row)")
            (event.label, event.label2, event.thread) = (0, 0, 0)
            (wanted.label, wanted.label2, wanted.thread) = (0, 0, 0)
            #expect(event == wanted, "row \(row)")
        }
        #expect(timeline.end == expected.end)
        #expect(timeline.backwardJumps == expected.backwardJumps)
        #expect(timeline.strings.count == expected.strings.count)
        #expect(input.info == reference.info)
    }

    @Test("rows, strings and tallied diagnostics with their line numbers equal one pass")
    func sameAsOnePass() throws {
        var lines = [header] + Self.eventLines(count: 600)
        // In the second half only: an unknown event type, an unknown field, and an event
        // earlier than the one before it, so the tallies' first locations and the sort's
        // backward jump come from the later half.
        lines[450] = #"{"t":4.5,"type":"teleport","distance":3}"#
        lines[470] = #"{"t":4.7,"type":"memory","footprint":1,"colour":"red"}"#
        lines[500] = #"{"t":0.25,"type":"memory_warning"}"#
        let (halves, onePass) = try Self.readBoth(lines.joined(separator: "\n") + "\n")
        Self.expectSame(halves, onePass)
        // Columns: the value of "type" starts after the 16 bytes {"t":4.5,"type":, the name
        // "colour" after the 39 bytes before it.
        let unknownType = try #require(halves.info.diagnostics.entry("unknown-type"))
        #expect(unknownType.location == "line 451, column 17")
        let unknownField = try #require(halves.info.diagnostics.entry("unknown-field"))
        #expect(unknownField.location == "line 471, column 40")
        #expect(halves.info.diagnostics.entry("out-of-order")?.count == 1)
    }

    @Test("an event out of order across the cut is sorted as in one pass")
    func orderAcrossTheCut() throws {
        // Times fall from the middle on: every row of the second half is earlier than the
        // first half's last.
        let lines = [header] + Self.eventLines(count: 200, from: 300) + Self.eventLines(count: 200, from: 0)
        let (halves, onePass) = try Self.readBoth(lines.joined(separator: "\n") + "\n")
        Self.expectSame(halves, onePass)
        #expect(halves.timeline.isSorted)
        #expect(halves.timeline.time.first == 0)
    }

    @Test("a cut-off last line is a truncated warning naming its line in the whole file and every event kept")
    func cutOffLastLine() throws {
        let lines = [header] + Self.eventLines(count: 300)
        let text = lines.joined(separator: "\n") + "\n" + #"{"t":9,"type":"net","dir":"rx","by"#
        let (halves, onePass) = try Self.readBoth(text)
        Self.expectSame(halves, onePass)
        let truncated = try #require(halves.info.diagnostics.entry("truncated"))
        #expect(truncated.message.contains("line 302"))
        #expect(truncated.message.contains("the 300 events before it were kept"))
    }

    @Test("a bad line in the second half is reported as one pass reports it")
    func errorInSecondHalf() throws {
        var lines = [header] + Self.eventLines(count: 300)
        lines[250] = #"{"t":2.5,"type":"net","dir":"sideways","bytes":1}"#
        let fixture = try TraceFixture(lines.joined(separator: "\n") + "\n")
        defer { fixture.remove() }
        #expect(try DrainTraceImporter.readInHalves(path: fixture.path, inputIndex: 0, chunkSize: 61, minimumSize: 0, progress: nil) == nil)
        let split = #expect(throws: ImportError.self) {
            try DrainTraceImporter.readFile(path: fixture.path, compression: nil, inputIndex: 0, chunkSize: 61, minimumSize: 0, progress: nil)
        }
        let onePass = #expect(throws: ImportError.self) {
            try DrainTraceImporter.read(path: fixture.path, inputIndex: 0, chunkSize: 61)
        }
        #expect(split == onePass)
        guard case .badData(_, let location, _)? = split else {
            Issue.record("expected bad data, got \(String(describing: split))")
            return
        }
        #expect(location?.hasPrefix("line 251,") == true)
    }

    @Test("a header after the middle of the file (blank lines before it) reads as in one pass")
    func headerInSecondHalf() throws {
        let text = String(repeating: "\n", count: 5_000) + ([header] + Self.eventLines(count: 50)).joined(separator: "\n") + "\n"
        let fixture = try TraceFixture(text)
        defer { fixture.remove() }
        let input = try DrainTraceImporter.readFile(
            path: fixture.path, compression: nil, inputIndex: 0, chunkSize: 61, minimumSize: 0, progress: nil)
        let onePass = try DrainTraceImporter.read(path: fixture.path, inputIndex: 0, chunkSize: 61)
        Self.expectSame(input, onePass)
        #expect(input.timeline.count == 50)
    }

    @Test("progress counts the bytes of both halves and ends at the file's size")
    func progress() throws {
        let text = ([header] + Self.eventLines(count: 400)).joined(separator: "\n") + "\n"
        let fixture = try TraceFixture(text)
        defer { fixture.remove() }
        var reports: [Int64] = []
        let input = try DrainTraceImporter.readInHalves(
            path: fixture.path, inputIndex: 0, chunkSize: 97, minimumSize: 0, progress: { reports.append($0) })
        #expect(input?.timeline.count == 400)
        #expect(reports.last == Int64(text.utf8.count))
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("files below the size limit, without a line break after the middle, or gzip-compressed are not split")
    func notSplit() throws {
        let small = try TraceFixture(([header] + Self.eventLines(count: 10)).joined(separator: "\n") + "\n")
        defer { small.remove() }
        #expect(try DrainTraceImporter.readInHalves(path: small.path, inputIndex: 0, chunkSize: 61, minimumSize: 1 << 20, progress: nil) == nil)
        let oneLong = try TraceFixture(header + "\n" + #"{"t":1,"type":"mark","name":""# + String(repeating: "x", count: 4_000) + #""}"#)
        defer { oneLong.remove() }
        #expect(try DrainTraceImporter.readInHalves(path: oneLong.path, inputIndex: 0, chunkSize: 61, minimumSize: 0, progress: nil) == nil)
        #expect(try DrainTraceImporter.readFile(path: oneLong.path, compression: nil, inputIndex: 0, minimumSize: 0, progress: nil).timeline.count == 1)
    }
}
