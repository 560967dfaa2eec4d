import DrainTraceWriter

// Events that span time (`cpu`, `gpu`, `mark` with a duration): `t` is where the span
// began, so they are written when it ends and the writer puts them back in time order
// among the buffered lines.

extension DrainProbe {
    /// Runs `body` and records a `cpu` slice from its start to its end on this thread,
    /// also when it throws. The slice is wall-clock time: wrap work, not waiting, or the
    /// slice counts the wait as CPU time.
    @inlinable
    public func measure<Result, Failure: Error>(_ name: String? = nil, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let start = now()
        defer { cpu(name, since: start) }
        return try body()
    }

    /// A `cpu` slice from `start` until now.
    public func cpu(_ name: String? = nil, since start: Instant) {
        span(.cpu, name: name, start: start, nanoseconds: writer.elapsed() - start.nanosecondsSinceStart)
    }

    /// A `cpu` slice of `duration` beginning at `start`.
    public func cpu(_ name: String? = nil, start: Instant, duration: Duration) {
        span(.cpu, name: name, start: start, nanoseconds: duration.traceNanoseconds)
    }

    /// A `gpu` slice from `start` until now.
    public func gpu(_ name: String? = nil, since start: Instant) {
        span(.gpu, name: name, start: start, nanoseconds: writer.elapsed() - start.nanosecondsSinceStart)
    }

    /// A `gpu` slice of `duration` beginning at `start` (e.g. a command buffer's GPU time).
    public func gpu(_ name: String? = nil, start: Instant, duration: Duration) {
        span(.gpu, name: name, start: start, nanoseconds: duration.traceNanoseconds)
    }

    /// A `mark` spanning from `start` until now.
    public func mark(_ name: String, since start: Instant) {
        span(.mark, name: name, start: start, nanoseconds: writer.elapsed() - start.nanosecondsSinceStart)
    }

    /// A `mark` of `duration` beginning at `start`.
    public func mark(_ name: String, start: Instant, duration: Duration) {
        span(.mark, name: name, start: start, nanoseconds: duration.traceNanoseconds)
    }

    private func span(_ type: TraceEventType, name: String?, start: Instant, nanoseconds: Int64) {
        writer.record(at: start.nanosecondsSinceStart, bound: TraceWriter.fixedBound + JSONFormatter.bound(of: name)) { line in
            line.type(type)
            line.seconds(.dur, max(0, nanoseconds))
            line.field(.name, name)
        }
    }
}
