import DrainTrace
import Testing

@testable import DrainImport

/// What is kept, repaired or noticed: unknown types and fields, order, cut-off files.
@Suite("Drain trace diagnostics")
struct DiagnosticsTests {
    @Test("unknown types are kept as unknown events with their type name")
    func unknownTypes() throws {
        let input = try importTrace([
            header,
            #"{"t":1,"type":"thermal","state":"serious","thread":"main"}"#,
            #"{"t":2,"type":"cpu","dur":0.5}"#,
            #"{"t":3,"type":"battery","level":{"percent":40,"history":[1,2,[3]]}}"#,
            #"{"t":4,"type":"thermal","state":"nominal"}"#,
        ])
        let timeline = input.timeline
        #expect(timeline.kind == [.unknown, .cpu, .unknown, .unknown])
        #expect(timeline.text(timeline[0].label) == "thermal")
        #expect(timeline.text(timeline[0].thread) == "main")
        #expect(timeline.text(timeline[2].label) == "battery")
        #expect(timeline[0].time == 1_000_000_000)

        let diagnostic = try #require(input.info.diagnostics.entry("unknown-type"))
        #expect(diagnostic.severity == .info)
        #expect(diagnostic.count == 3)
        #expect(diagnostic.location == "line 2, column 15")
        #expect(diagnostic.message.hasPrefix("event type \"thermal\" is not known to this reader"))
        // Fields of unknown types are not reported one by one.
        #expect(input.info.diagnostics.entry("unknown-field") == nil)
    }

    @Test("unknown fields and fields of other types are ignored and counted")
    func unknownFields() throws {
        let input = try importTrace([
            header,
            #"{"t":1,"type":"cpu","dur":0.5,"qos":"utility","cores":[0,1]}"#,
            #"{"t":2,"type":"net","dir":"tx","bytes":10,"path":"/tmp/x"}"#,
            #"{"t":3,"type":"frame","changed":false,"meta":{"a":{"b":[{},[],"]}"]}},"x":null}"#,
        ])
        #expect(input.timeline.count == 3)
        #expect(input.timeline[0].duration == 500_000_000)
        let diagnostic = try #require(input.info.diagnostics.entry("unknown-field"))
        #expect(diagnostic.severity == .info)
        // qos, cores, path (a disk field on a net event), meta, x.
        #expect(diagnostic.count == 5)
        #expect(diagnostic.location == "line 2, column 31")
        #expect(diagnostic.message == "field \"qos\" is not part of a \"cpu\" event in drain_trace 1 and was ignored")
    }

    @Test("the first unknown field of a line is the leftmost, known name or not")
    func firstUnknownField() throws {
        let input = try importTrace([header, #"{"t":1,"host":"a","type":"cpu","zzz":1,"dur":0.5}"#])
        let diagnostic = try #require(input.info.diagnostics.entry("unknown-field"))
        #expect(diagnostic.count == 2)
        #expect(diagnostic.location == "line 2, column 8")
        #expect(diagnostic.message.hasPrefix("field \"host\""))
    }

    @Test("events out of time order are sorted stably, with a warning")
    func outOfOrder() throws {
        let input = try importTrace([
            header,
            #"{"t":2,"type":"mark","name":"a"}"#,
            #"{"t":1,"type":"mark","name":"b"}"#,
            #"{"t":2,"type":"mark","name":"c"}"#,
            #"{"t":0.5,"type":"mark","name":"d"}"#,
            #"{"t":1,"type":"mark","name":"e"}"#,
        ])
        let timeline = input.timeline
        #expect(timeline.isSorted)
        #expect(timeline.time == [500_000_000, 1_000_000_000, 1_000_000_000, 2_000_000_000, 2_000_000_000])
        // Equal times keep the order they were written in: b before e, a before c.
        #expect(timeline.label.map(timeline.text) == ["d", "b", "e", "a", "c"])
        let diagnostic = try #require(input.info.diagnostics.entry("out-of-order"))
        #expect(diagnostic.severity == .warning)
        // b (after a) and d (after c) are earlier than the event before them.
        #expect(diagnostic.count == 2)
    }

    @Test("a cut-off last line keeps the events before it, with a warning")
    func truncatedLastLine() throws {
        let text = header + "\n" + #"{"t":1,"type":"cpu","dur":0.5}"# + "\n" + #"{"t":2,"type":"net","dir":"tx","by"#
        let fixture = try TraceFixture(text)
        defer { fixture.remove() }
        let input = try fixture.read()
        #expect(input.timeline.count == 1)
        #expect(input.info.events == 1)
        let diagnostic = try #require(input.info.diagnostics.entry("truncated"))
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.location == "line 3, column 35")
        #expect(diagnostic.message.hasPrefix("the last line (line 3) is cut off"))
        #expect(diagnostic.message.hasSuffix("the 1 events before it were kept"))
    }

    @Test(
        "a last line cut anywhere inside its JSON is a truncation",
        arguments: [
            #"{"#, #"{"t"#, #"{"t":"#, #"{"t":1."#, #"{"t":1,"type":"cpu""#, #"{"t":1,"type":"cpu","dur":0.5"#,
            #"{"t":1,"type":"frame","changed":tr"#, #"{"t":1,"type":"mark","name":"a\"#, #"{"t":1,"type":"mark","name":"\u00"#,
            #"{"t":1,"type":"x","a":[1,{"b":"#,
        ])
    func cutAnywhere(_ lastLine: String) throws {
        let fixture = try TraceFixture(header + "\n" + #"{"t":0,"type":"memory_warning"}"# + "\n" + lastLine)
        defer { fixture.remove() }
        let input = try fixture.read()
        #expect(input.timeline.count == 1)
        #expect(input.info.diagnostics.entry("truncated")?.location == "line 3, column \(lastLine.utf8.count + 1)")
    }

    @Test("a complete last line without a newline is read normally")
    func lastLineWithoutNewline() throws {
        let fixture = try TraceFixture(header + "\n" + #"{"t":1,"type":"cpu","dur":0.5}"#)
        defer { fixture.remove() }
        let input = try fixture.read()
        #expect(input.timeline.count == 1)
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test("a complete but invalid last line without a newline is still an error")
    func invalidLastLine() throws {
        let failure = try importFailure(header + "\n" + #"{"t":1,"type":"cpu"}"#)
        guard case let .badData(_, location, reason)? = failure?.error else {
            Issue.record("expected bad data")
            return
        }
        #expect(location == "line 2, column 1")
        #expect(reason == "a \"cpu\" event needs \"dur\"")
    }

    @Test("an incomplete line followed by a newline is an error, not a truncation")
    func incompleteLineInside() throws {
        let failure = try badData([header, #"{"t":1,"type":"cpu","dur":0.5"#, #"{"t":2,"type":"cpu","dur":0.5}"#])
        #expect(failure?.location == "line 2, column 30")
        #expect(failure?.reason == "expected ',' or '}' after a field value, found the end of the line")
    }
}
