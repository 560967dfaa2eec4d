import DrainTrace
import Testing

@testable import DrainImport

/// The shapes a Chrome trace file takes, where reading stops, and how bad JSON is reported.
@Suite struct ChromeFormTests {
    static let events = #"{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5},{"ph":"i","name":"b","pid":1,"tid":1,"ts":7}"#
    static let expected = [
        Row(kind: .cpu, time: 0, duration: 5_000, thread: "main", label: "a"),
        Row(kind: .mark, time: 7_000, thread: "main", label: "b"),
    ]

    @Test(arguments: [
        "[\(events)]",
        "{\"traceEvents\":[\(events)],\"displayTimeUnit\":\"ns\"}",
        "{\"displayTimeUnit\":\"ms\",\"metadata\":{\"a\":[1,{\"b\":null}]},\"traceEvents\":[\(events)],\"stackFrames\":{}}",
        "\u{FEFF}\n [\n\(events)\n]\n",
        "[\(events),]",
    ])
    func completeFormsReadTheSame(text: String) throws {
        let input = try importChrome(text)
        #expect(input.timeline.rows(.cpu, .mark) == Self.expected)
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test(arguments: ["[\(events)", "[\(events),", "[\(events),\n\n  ", "["])
    func theArrayFormMayLackItsClosingBracket(text: String) throws {
        let input = try importChrome(text)
        #expect(input.timeline.rows(.cpu, .mark) == (text == "[" ? [] : Self.expected))
        let unterminated = try #require(input.info.diagnostics.entry("unterminated"))
        #expect(unterminated.severity == .info)
    }

    @Test func aFileCutInsideAnEventKeepsTheEventsBeforeIt() throws {
        let input = try importChrome("[\(Self.events),\n{\"ph\":\"X\",\"name\":\"cu")
        #expect(input.timeline.rows(.cpu, .mark) == Self.expected)
        let truncated = try #require(input.info.diagnostics.entry("truncated"))
        #expect(truncated.severity == .warning)
        #expect(truncated.message.contains("the 2 events before it were kept"))
        #expect(truncated.location == "line 2, column 1")
    }

    @Test func anObjectCutInsideItsEventsKeepsThem() throws {
        let input = try importChrome("{\"traceEvents\":[\(Self.events)")
        #expect(input.timeline.rows(.cpu, .mark) == Self.expected)
        #expect(input.info.diagnostics.entry("truncated")?.severity == .warning)
    }

    @Test func everyChunkBoundaryReadsTheSame() throws {
        let text = """
            {"displayTimeUnit":"ns","otherData":{"version":"x\\"y"},
             "traceEvents":[{"ph":"B","name":"outer \\u00e9","pid":1,"tid":1,"ts":10.125},
               {"ph":"X","name":"inner","cat":"gpu","pid":1,"tid":1,"ts":11,"dur":2.5,"args":{"deep":[[1],[2,{"x":true}]]}},
               {"ph":"C","name":"memory","pid":1,"ts":12,"args":{"footprint":123456789}},
               {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},
               {"ph":"E","pid":1,"tid":1,"ts":20}]}
            """
        let whole = try importChrome(text)
        #expect(whole.timeline.count == 3)
        for chunkSize in [1, 2, 3, 5, 7, 13, 64] {
            let chunked = try importChrome(text, chunkSize: chunkSize)
            #expect(chunked.timeline.rows(.cpu, .mark, .gpu, .memory) == whole.timeline.rows(.cpu, .mark, .gpu, .memory), "chunk \(chunkSize)")
            #expect(chunked.timeline.amount == whole.timeline.amount)
        }
    }

    @Test func valuesLongerThanAChunkAreReadWhole() throws {
        // A 300 KB stackFrames member and a 100 KB event name, read in 1 KiB chunks.
        let frames = (0..<10_000).map { "\"\($0)\":{\"name\":\"f\($0)\"}" }.joined(separator: ",")
        let name = String(repeating: "n", count: 100_000)
        let text = "{\"stackFrames\":{\(frames)},\"traceEvents\":[{\"ph\":\"X\",\"name\":\"\(name)\",\"ts\":0,\"dur\":1},\(Self.events)]}"
        let input = try importChrome(text, chunkSize: 1024)
        #expect(input.timeline.rows(.cpu).first?.label == name)
        #expect(input.timeline.count == 3)
    }

    @Test func badJSONIsReportedWithLineAndColumn() throws {
        let cases: [(String, String, String)] = [
            ("[\n{\"ph\":\"X\" \"ts\":1}]", "line 2, column 11", "expected ',' or '}' after a field value, found '\"'"),
            ("[{\"ph\":\"X\",\"ts\":1}\n{\"ph\":\"X\",\"ts\":2}]", "line 2, column 1", "expected ',' or ']' after an event, found '{'"),
            ("[{\"ph\":\"X\",\"ts\":01}]", "line 1, column 17", "invalid number"),
            ("[1,2]", "line 1, column 2", "expected '{' to start an event"),
            ("{\"traceEvents\":{}}", "line 1, column 16", "\"traceEvents\" must be an array of events, found '{'"),
            ("{\"traceEvents\":[],\"x\":tru}", "line 1, column 23", "expected a value"),
            ("[{\"ph\":\"X\",\"ts\":1}] x", "line 1, column 21", "unexpected 'x' after the end of the trace"),
            ("{\"displayTimeUnit\":\"ns\"}", "line 1, column 25", "no \"traceEvents\" array"),
            ("  \"trace\"", "line 1, column 3", "expected '[' or '{' to start a Chrome trace, found '\"'"),
        ]
        for (text, location, reason) in cases {
            let failure = try #require(try chromeBadData(text), "\(text)")
            #expect(failure.location == location, "\(text)")
            #expect(failure.reason.contains(reason), "\(text): \(failure.reason)")
        }
    }

    @Test func eventsTheFormatForbidsAreBadData() throws {
        let cases: [(String, String)] = [
            (#"[{"name":"x","ts":1}]"#, "missing \"ph\""),
            (#"[{"ph":"X","name":"x"}]"#, "a \"X\" event needs \"ts\""),
            (#"[{"ph":"X","ts":"soon"}]"#, "\"ts\" must be a number of microseconds, found a string"),
            (#"[{"ph":"X","ts":1,"dur":-2}]"#, "\"dur\" must not be negative"),
            (#"[{"ph":"X","ts":1,"tid":[1]}]"#, "\"tid\" must be a number or a string, found an array"),
            (#"[{"ph":7,"ts":1}]"#, "\"ph\" must be a string, found a number"),
        ]
        for (text, reason) in cases {
            let failure = try #require(try chromeBadData(text), "\(text)")
            #expect(failure.reason.contains(reason), "\(text): \(failure.reason)")
            #expect(failure.location?.hasPrefix("line 1, column ") == true)
        }
    }

    @Test func anEmptyFileIsBadData() throws {
        for text in ["", " \n\t"] {
            let failure = try #require(try chromeBadData(text))
            #expect(failure.location == nil)
            #expect(failure.reason.hasPrefix("empty file"))
        }
    }
}
