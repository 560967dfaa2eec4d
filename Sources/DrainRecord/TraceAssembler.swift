#if os(Linux)
import DrainImport
import DrainTrace
import DrainTraceWriter

/// Writes the finished trace: the header, then the sample lines merged in time order with
/// the events of the run's strace log, if any.
struct TraceAssembler {
    /// What the header says.
    var process: String
    var pid: Int32
    var wallClockStart: Int64
    /// Leaves strace's `net` events out: the packet capture of the run counts the traffic.
    var skipsStraceNetwork = false

    /// Flushes the output buffer when it holds this many bytes.
    static let flushBytes = 64 * 1024

    /// Writes to `output` and returns the number of events written, and how many of them
    /// came from strace. The strace events are
    /// moved onto the trace's clock by the difference of the two wall-clock starts.
    /// O(s + e) for s sample lines and e strace events.
    func assemble(samples: inout SampleLineReader, strace: ImportedInput?, into output: OutputFile) throws(RecordError) -> (events: Int, fromStrace: Int) {
        var line = JSONLine(capacity: Self.flushBytes + 4096)
        line.traceHeader(process: process, pid: Int64(pid), device: nil, startNanosecondsSinceEpoch: wallClockStart)
        var events = 0
        var fromStrace = 0
        let timeline = strace?.timeline
        let shift = timeline?.wallClockStart.map { $0 - wallClockStart } ?? 0
        var straceIndex = 0
        let straceCount = timeline?.count ?? 0

        func flushIfFull() throws(RecordError) {
            guard line.count >= Self.flushBytes else { return }
            try output.write(line)
            line.removeAll()
        }
        func writeStraceEvents(before limit: Nanoseconds) throws(RecordError) {
            guard let timeline else { return }
            while straceIndex < straceCount {
                let time = max(0, timeline.time[straceIndex] + shift)
                guard time < limit else { return }
                let event = timeline[straceIndex]
                if !(skipsStraceNetwork && event.kind == .net), TimelineTraceWriter.append(event, at: time, strings: timeline.strings, to: &line) {
                    events += 1
                    fromStrace += 1
                }
                straceIndex += 1
                try flushIfFull()
            }
        }

        while let time = try samples.peekTime() {
            try writeStraceEvents(before: time)
            _ = try samples.next { bytes, _ in line.raw(bytes) }
            events += 1
            try flushIfFull()
        }
        try writeStraceEvents(before: .max)
        try output.write(line)
        return (events, fromStrace)
    }
}
#endif
