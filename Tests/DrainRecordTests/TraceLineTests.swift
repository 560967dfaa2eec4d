#if os(Linux)
import DrainImport
import DrainTestSupport
import DrainTrace
import DrainTraceWriter
import Foundation
import Testing

@testable import DrainRecord

/// The recorder's trace lines: the header and the strace events merged into a recording.
@Suite struct TraceLineTests {
    private func text(_ build: (inout JSONLine) -> Void) -> String {
        var line = JSONLine()
        build(&line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// A hostile process name and the wall-clock start survive a trip through the trace
    /// reader.
    @Test func headerRoundTripsThroughTheTraceReader() throws {
        let name = "ev\"il\n\u{1B}[31m\\name"
        // 2026-11-22T10:00:00.000000123Z: 1_795_341_600 s since the epoch, plus 123 ns.
        let start: Int64 = 1_795_341_600 * 1_000_000_000 + 123
        let header = text { $0.traceHeader(process: name, pid: 4242, device: nil, startNanosecondsSinceEpoch: start) }
        #expect(header.hasPrefix(#"{"drain_trace":1,"process":"ev\"il\n\u001B[31m\\name","pid":4242,"start":"2026-11-22T10:00:00.000000123Z"}"#))
        let input = try DrainTraceImporter.read(bytes: Array(header.utf8), path: "header.jsonl")
        #expect(input.info.process == name)
        #expect(input.timeline.wallClockStart == start)
    }

    /// Every event the strace importer makes from a real log is written back as a trace
    /// line that the trace reader turns into the same columns.
    @Test func straceEventsRoundTripThroughTheTraceFormat() throws {
        let log = Corpus.root.appendingPathComponent("strace/python_http_roundtrip.strace").path
        let strace = try StraceImporter.read(path: log)
        let timeline = strace.timeline
        #expect(Set(timeline.kind).isSuperset(of: [.net, .disk]))
        var line = JSONLine()
        line.traceHeader(process: "python", pid: 1, device: nil, startNanosecondsSinceEpoch: timeline.wallClockStart ?? 0)
        for index in 0..<timeline.count {
            TimelineTraceWriter.append(timeline[index], at: timeline.time[index], strings: timeline.strings, to: &line)
        }
        let back = try DrainTraceImporter.read(bytes: line.bytes, path: "roundtrip.jsonl").timeline
        try #require(back.count == timeline.count)
        for index in 0..<timeline.count {
            let (original, read) = (timeline[index], back[index])
            #expect(read.time == original.time)
            #expect(read.kind == original.kind)
            #expect(read.code == original.code)
            #expect(read.amount == original.amount)
            #expect(read.amount2 == original.amount2)
            if original.kind != .net { #expect(read.duration == original.duration) }
            #expect(back.strings[read.label] == timeline.strings[original.label])
            #expect(back.strings[read.label2] == timeline.strings[original.label2])
            #expect(back.strings[read.thread] == timeline.strings[original.thread])
        }
    }
}
#endif
