#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DrainTraceWriter

/// The trace file: merges the lines that threads stage in their own buffers into the file
/// in time order.
///
/// Each thread appends to a `StagingBuffer` of its own (registered once per thread and
/// trace), so threads writing at once do not contend for one lock or one buffer. A merge —
/// when a thread's buffer fills, on `flush()`, at each memory sample and on `close()` —
/// holds the writer's lock, picks a cut-off time no later than the moment it started, takes
/// from each thread's buffer in turn the lines up to the cut-off, and writes them to the
/// file merged by time. Every thread reads the clock under its own buffer's lock, so an
/// event the merge did not see happened after the cut-off: the file stays in time order
/// across threads.
///
/// Lines reach the file whole, so the file only ever holds whole lines, plus at most a
/// cut-off last one if the process dies during a write (which a reader keeps as a
/// `truncated` warning). After the first failed write the writer stops writing, because
/// appending after a partly written line would put a broken line in the middle of the file;
/// it keeps the error and counts the events it drops.
final class TraceWriter: @unchecked Sendable {
    let path: String
    /// `CLOCK_MONOTONIC` nanoseconds at `t` = 0.
    let origin: Int64
    /// Tells this writer's staging buffers apart from other traces' in a thread's table.
    let id: UInt64
    /// The size of each thread's staging buffer and of the output buffer.
    let capacity: Int

    private let lock = ProbeLock()
    /// The merged lines on their way to the file.
    private let output: UnsafeMutablePointer<UInt8>
    /// Whether writes go through `BrokenPipe.suppressingSignal` (pipes and sockets).
    private let guardsBrokenPipe: Bool
    // Guarded by `lock`:
    private var descriptor: Int32
    private var failure: DrainProbeError?
    /// Dropped events not counted in a staging buffer.
    private var dropped = 0
    private var stagings: [StagingBuffer] = []
    /// The lines each merge took, one sorted run per staging buffer; kept to reuse its
    /// storage.
    private var runs: [Run] = []

    /// Creates (or truncates) the file at `path` and writes `header` to it at once, so that
    /// even a process that dies early leaves a readable trace.
    init(path: String, capacity: Int, origin: Int64, header: UnsafeRawBufferPointer) throws(DrainProbeError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DrainProbeError(operation: .open, path: path, code: errno) }
        guardsBrokenPipe = BrokenPipe.canSignal(descriptor)
        if guardsBrokenPipe { BrokenPipe.prepare(descriptor) }
        let code = Self.writeAll(descriptor, header, guardingBrokenPipe: guardsBrokenPipe).code
        guard code == 0 else {
            _ = closeDescriptor(descriptor)
            throw DrainProbeError(operation: .open, path: path, code: code)
        }
        self.path = path
        self.descriptor = descriptor
        self.origin = origin
        self.capacity = max(4096, capacity)
        id = WriterIdentifiers.next()
        output = .allocate(capacity: self.capacity)
    }

    deinit {
        close()
        output.deallocate()
    }

    /// Now, in nanoseconds since `t` = 0.
    @inline(__always)
    func elapsed() -> Int64 { max(0, TraceClock.monotonicNow() - origin) }

    /// Appends one event line: `{"t":` + the time + `body`, where `body` starts with the
    /// comma before the event's next field and ends with `}\n`.
    ///
    /// - Parameter time: the event's time; `nil` reads the clock under the thread's buffer
    ///   lock, which keeps the lines of all threads in time order even when a thread is
    ///   preempted between its call and the lock. A given time earlier than the thread's
    ///   latest line (a CPU slice, written when it ends) goes in among its buffered lines at
    ///   its place. Only a time earlier than lines already written to the file ends up out
    ///   of order; to make that rare, a full buffer has only its older half merged.
    ///
    /// Cost: one uncontended lock, one clock read and a copy of the line; when the thread's
    /// buffer fills, a merge (O(bytes buffered by all threads)) and a write.
    func append(_ body: UnsafeRawBufferPointer, at time: Int64?) {
        guard JSONFormatter.timePrefixBound + body.count <= capacity else {
            appendLong(body, at: time)
            return
        }
        let staging = ThreadStagings.staging(for: self)
        var attempt = 0
        while case .full(let olderHalf) = staging._withUnsafeGuaranteedRef({ $0.append(body, at: time) }) {
            // The first merge takes the older half; should that not make room, all of it.
            let cutoff: Int64? = attempt == 0 ? olderHalf : attempt == 1 ? nil : .max
            lock.withLock { mergeLocked(upTo: cutoff) }
            attempt += 1
        }
    }

    /// A buffer for the calling thread, registered with this writer; stopped at once if the
    /// trace is already closed or failed.
    func makeStaging() -> StagingBuffer {
        let staging = StagingBuffer(capacity: capacity, origin: origin)
        lock.withLock {
            if descriptor < 0 || failure != nil { staging.stop() }
            stagings.append(staging)
        }
        return staging
    }

    /// Writes the buffered lines of every thread to the file.
    func flush() {
        lock.withLock { mergeLocked(upTo: nil) }
    }

    /// Writes the buffered lines whose time is at most `cutoff` and keeps the later ones,
    /// so that a slice that began after `cutoff` and ends later still goes in at its place.
    func flush(upTo cutoff: Int64) {
        lock.withLock { mergeLocked(upTo: cutoff) }
    }

    /// Flushes and closes the file; later events are dropped. Idempotent.
    func close() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            mergeLocked(upTo: .max)
            for staging in stagings { staging.stop() }
            if closeDescriptor(descriptor) != 0, failure == nil {
                failure = DrainProbeError(operation: .close, path: path, code: errno)
            }
            descriptor = -1
        }
    }

    /// The first error writing or closing the file, if any.
    var lastError: DrainProbeError? { lock.withLock { failure } }

    /// Events not written: those after a write error or after `close()`.
    var droppedEvents: Int {
        lock.withLock { stagings.reduce(dropped) { $0 + $1.droppedLines } }
    }

    /// Writes a line longer than a buffer with one write, after the buffered lines up to
    /// its time, so that it is counted whole if the write fails. Only strings of tens of
    /// kilobytes make such lines.
    private func appendLong(_ body: UnsafeRawBufferPointer, at time: Int64?) {
        lock.withLock {
            guard descriptor >= 0, failure == nil else {
                dropped += 1
                return
            }
            let eventTime = time.map { max(0, $0) } ?? elapsed()
            mergeLocked(upTo: eventTime)
            let line = UnsafeMutableRawBufferPointer.allocate(byteCount: JSONFormatter.timePrefixBound + body.count, alignment: 1)
            defer { line.deallocate() }
            var prefix = JSONFormatter(line.baseAddress!.assumingMemoryBound(to: UInt8.self))
            prefix.timePrefix(eventTime)
            prefix.raw(body)
            writeLocked(prefix.written)
        }
    }

    /// Writes the lines of every thread whose time is at most `cutoff` (`nil`: now) to the
    /// file, merged by time; each thread's lines are already in time order.
    ///
    /// Cost: O(bytes written × threads with lines to write).
    private func mergeLocked(upTo cutoff: Int64?) {
        guard descriptor >= 0, failure == nil else { return }
        let cutoff = cutoff ?? elapsed()
        runs.removeAll(keepingCapacity: true)
        for staging in stagings {
            let count = staging.take(upTo: cutoff)
            if count > 0 { runs.append(Run(lines: staging.taken, count: count)) }
        }
        var used = 0
        while !runs.isEmpty {
            if runs.count == 1 {
                // Nothing left to interleave: the rest of the run goes out as it is.
                writeLocked(UnsafeRawBufferPointer(start: output, count: used))
                writeLocked(runs[0].rest)
                used = 0
                break
            }
            var earliest = 0
            for index in 1..<runs.count where runs[index].headTime < runs[earliest].headTime { earliest = index }
            let line = runs[earliest].head
            if used + line.count > capacity {
                writeLocked(UnsafeRawBufferPointer(start: output, count: used))
                used = 0
            }
            UnsafeMutableRawPointer(output + used).copyMemory(from: line.baseAddress!, byteCount: line.count)
            used += line.count
            if !runs[earliest].advance() { runs.remove(at: earliest) }
        }
        writeLocked(UnsafeRawBufferPointer(start: output, count: used))
        // Forget the buffers of threads that exited, once empty.
        stagings.removeAll { staging in
            guard staging.isRetiredAndEmpty else { return false }
            dropped += staging.droppedLines
            return true
        }
    }

    /// Writes `bytes` (whole lines) unless an earlier write failed; lines not written are
    /// counted as dropped. After a failure every thread's buffer stops taking lines.
    private func writeLocked(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        guard descriptor >= 0, failure == nil else {
            dropped += TraceLine.count(in: bytes)
            return
        }
        let (written, code) = Self.writeAll(descriptor, bytes, guardingBrokenPipe: guardsBrokenPipe)
        guard code != 0 else { return }
        failure = DrainProbeError(operation: .write, path: path, code: code)
        // A line is lost unless its newline was written.
        dropped += TraceLine.count(in: UnsafeRawBufferPointer(rebasing: bytes[written...]))
        for staging in stagings { staging.stop() }
    }

    /// `FileIO.writeAll`, with `SIGPIPE` held off for pipes and sockets.
    private static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, guardingBrokenPipe: Bool
    ) -> (written: Int, code: Int32) {
        guard guardingBrokenPipe else { return FileIO.writeAll(bytes, to: descriptor) }
        var written = 0
        let code = BrokenPipe.suppressingSignal {
            let result = FileIO.writeAll(bytes, to: descriptor)
            written = result.written
            return result.code
        }
        return (written, code)
    }
}

/// `close(2)`, which the writer's own `close()` hides inside the class.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
