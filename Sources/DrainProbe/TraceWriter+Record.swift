import DrainTraceWriter

extension TraceWriter {
    /// The most bytes any event writes besides its strings: keys, enum names and numbers.
    static let fixedBound = 256

    /// Formats one event outside the lock and appends it.
    ///
    /// `format` writes the event's fields after `t`, starting with `,"type":…`; this adds
    /// the thread field (when `attributed`) and `}\n`, and `append` the time in front.
    /// `bound` is the most bytes `format` writes. Events that fit in 1 KiB are formatted on
    /// the stack; longer ones (long strings) in a heap block of their own.
    @inline(__always)
    func record(at time: Int64? = nil, bound: Int, attributed: Bool = true, _ format: (inout JSONFormatter) -> Void) {
        let identity = attributed ? ThreadIdentity.current : nil
        let total = bound + ThreadIdentity.fieldBound + 2
        if total <= 1024 {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { memory in
                finish(JSONFormatter(memory.baseAddress!), identity: identity, time: time, format)
            }
        } else {
            let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: total)
            defer { memory.deallocate() }
            finish(JSONFormatter(memory), identity: identity, time: time, format)
        }
    }

    @inline(__always)
    private func finish(
        _ line: JSONFormatter, identity: UInt64?, time: Int64?, _ format: (inout JSONFormatter) -> Void
    ) {
        var line = line
        format(&line)
        if let identity { ThreadIdentity.write(identity, to: &line) }
        line.endLine()
        append(line.written, at: time)
    }

    /// Records a `memory` event. Without a thread: the footprint is the whole process's.
    func recordMemory(footprint: Int) {
        record(bound: Self.fixedBound, attributed: false) { line in
            line.type(.memory)
            line.integer(.footprint, Int64(max(0, footprint)))
        }
    }
}
