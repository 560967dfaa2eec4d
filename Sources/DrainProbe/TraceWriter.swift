#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The trace file and its buffer: appends event lines in time order under one lock and
/// writes the buffer to the file when it fills, on `flush()` and on `close()`.
///
/// Lines reach the buffer whole, so the file only ever holds whole lines, plus at most a
/// cut-off last one if the process dies during a write (which a reader keeps as a
/// `truncated` warning). After the first failed write the writer stops writing, because
/// appending after a partly written line would put a broken line in the middle of the file;
/// it keeps the error and counts the events it drops.
final class TraceWriter: @unchecked Sendable {
    let path: String
    /// `CLOCK_MONOTONIC` nanoseconds at `t` = 0.
    let origin: Int64

    private let lock = ProbeLock()
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Whether writes go through `BrokenPipe.suppressingSignal` (pipes and sockets).
    private let guardsBrokenPipe: Bool
    // Guarded by `lock`:
    private var descriptor: Int32
    private var used = 0
    /// The time of the last line appended at the end of the buffer (the latest so far).
    private var latest: Int64 = 0
    private var failure: DrainProbeError?
    private var dropped = 0

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
        buffer = .allocate(capacity: self.capacity)
    }

    deinit {
        close()
        buffer.deallocate()
    }

    /// Now, in nanoseconds since `t` = 0.
    @inline(__always)
    func elapsed() -> Int64 { max(0, MonotonicClock.now() - origin) }

    /// Appends one event line: `{"t":` + the time + `body`, where `body` starts with the
    /// comma before the event's next field and ends with `}\n`.
    ///
    /// - Parameter time: the event's time; `nil` reads the clock under the lock, which keeps
    ///   the lines of all threads in time order even when a thread is preempted between its
    ///   call and the lock. A given time earlier than the latest line (a CPU slice, written
    ///   when it ends) goes in among the buffered lines at its place. Only a time earlier
    ///   than lines already written to the file ends up out of order; to make that rare, a
    ///   full buffer writes its older half and keeps the newer half.
    ///
    /// Cost: one lock, one clock read and a copy of the line; O(bytes moved) when the line
    /// goes in before others.
    func append(_ body: UnsafeRawBufferPointer, at time: Int64?) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 + LineFormatter.numberBound) { prefixMemory in
            lock.lock()
            defer { lock.unlock() }
            guard descriptor >= 0, failure == nil else {
                dropped += 1
                return
            }
            let eventTime = time.map { max(0, $0) } ?? elapsed()
            var prefix = LineFormatter(prefixMemory.baseAddress!)
            prefix.raw(#"{"t":"#)
            prefix.seconds(eventTime)
            let length = prefix.count + body.count
            if used + length > capacity {
                writeOlderHalf()
                if used + length > capacity { flushLocked() }
                if failure != nil {
                    dropped += 1
                    return
                }
                if length > capacity {
                    writeLongLine(prefix.written, body)
                    latest = max(latest, eventTime)
                    return
                }
            }
            var position = used
            if eventTime < latest {
                position = insertionPoint(for: eventTime)
                memmove(buffer + position + length, buffer + position, used - position)
            } else {
                latest = eventTime
            }
            var line = LineFormatter(buffer + position)
            line.raw(prefix.written)
            line.raw(body)
            used += length
        }
    }

    /// Writes the buffered lines to the file.
    func flush() {
        lock.withLock { flushLocked() }
    }

    /// Writes the buffered lines whose time is at most `cutoff` and keeps the later ones,
    /// so that a slice that began after `cutoff` and ends later still goes in at its place.
    func flush(upTo cutoff: Int64) {
        lock.withLock {
            guard descriptor >= 0, failure == nil, used > 0 else { return }
            let split = insertionPoint(for: cutoff)
            if split > 0 { writeFront(upTo: split) }
        }
    }

    /// Flushes and closes the file; later events are dropped. Idempotent.
    func close() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            flushLocked()
            if closeDescriptor(descriptor) != 0, failure == nil {
                failure = DrainProbeError(operation: .close, path: path, code: errno)
            }
            descriptor = -1
        }
    }

    /// The first error writing or closing the file, if any.
    var lastError: DrainProbeError? { lock.withLock { failure } }

    /// Events not written: those after a write error or after `close()`.
    var droppedEvents: Int { lock.withLock { dropped } }

    /// Writes a line longer than the buffer with one write, so that it is counted whole if
    /// the write fails. Only strings of tens of kilobytes make such lines.
    private func writeLongLine(_ prefix: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) {
        let line = UnsafeMutableRawBufferPointer.allocate(byteCount: prefix.count + body.count, alignment: 1)
        defer { line.deallocate() }
        line.copyMemory(from: prefix)
        UnsafeMutableRawBufferPointer(rebasing: line[prefix.count...]).copyMemory(from: body)
        writeLocked(UnsafeRawBufferPointer(line))
    }

    /// Writes the buffered lines up to the first line that starts in the buffer's second
    /// half, keeping the newer half for slices that began during it.
    private func writeOlderHalf() {
        guard used > 0 else { return }
        var split = used / 2
        while split < used && buffer[split - 1] != UInt8(ascii: "\n") { split += 1 }
        writeFront(upTo: split)
    }

    /// Writes the buffered lines before offset `split` (a line boundary) and moves the rest
    /// to the front.
    private func writeFront(upTo split: Int) {
        writeLocked(UnsafeRawBufferPointer(start: buffer, count: split))
        if failure != nil {
            // Nothing more will be written: the rest is lost too.
            for index in split..<used where buffer[index] == UInt8(ascii: "\n") { dropped += 1 }
            used = 0
            return
        }
        memmove(buffer, buffer + split, used - split)
        used -= split
    }

    private func flushLocked() {
        guard used > 0 else { return }
        writeLocked(UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }

    private func writeLocked(_ bytes: UnsafeRawBufferPointer) {
        guard descriptor >= 0, failure == nil else { return }
        let (written, code) = Self.writeAll(descriptor, bytes, guardingBrokenPipe: guardsBrokenPipe)
        guard code != 0 else { return }
        failure = DrainProbeError(operation: .write, path: path, code: code)
        // A line is lost unless its newline was written: count those with the later drops.
        for index in written..<bytes.count where bytes[index] == UInt8(ascii: "\n") { dropped += 1 }
    }

    /// The offset after the last buffered line whose time is at most `time` (0 if none is):
    /// buffered lines are in time order, so scanning back from the end stops at the first
    /// line not later than `time`. Strings in lines are escaped, so `\n` only ends lines.
    private func insertionPoint(for time: Int64) -> Int {
        var end = used
        while end > 0 {
            var start = end - 1
            while start > 0 && buffer[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            if lineTime(at: start) <= time { return end }
            end = start
        }
        return 0
    }

    /// The time of the buffered line at `start`, read back from its `{"t":SECONDS` prefix.
    private func lineTime(at start: Int) -> Int64 {
        var index = start + 5
        var seconds: Int64 = 0
        while buffer[index] >= UInt8(ascii: "0") && buffer[index] <= UInt8(ascii: "9") {
            seconds = seconds &* 10 &+ Int64(buffer[index] &- UInt8(ascii: "0"))
            index += 1
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1_000_000_000
        if buffer[index] == UInt8(ascii: ".") {
            index += 1
            while buffer[index] >= UInt8(ascii: "0") && buffer[index] <= UInt8(ascii: "9") {
                scale /= 10
                fraction = fraction &+ Int64(buffer[index] &- UInt8(ascii: "0")) &* scale
                index += 1
            }
        }
        return seconds &* 1_000_000_000 &+ fraction
    }

    /// Writes all of `bytes`, retrying interrupted and partial writes. Returns how many
    /// bytes were written, and 0 or the `errno` of the failure.
    private static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, guardingBrokenPipe: Bool
    ) -> (written: Int, code: Int32) {
        guard guardingBrokenPipe else { return writeAll(descriptor, bytes) }
        var written = 0
        let code = BrokenPipe.suppressingSignal {
            let result = writeAll(descriptor, bytes)
            written = result.written
            return result.code
        }
        return (written, code)
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> (written: Int, code: Int32) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        var done = 0
        while done < bytes.count {
            let result = write(descriptor, base + done, bytes.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return (done, errno)
            }
            if result == 0 { return (done, EIO) }
            done += result
        }
        return (done, 0)
    }
}

/// `close(2)`, which the writer's own `close()` hides inside the class.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
