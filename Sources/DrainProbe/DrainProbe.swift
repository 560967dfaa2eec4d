#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DrainTraceWriter

/// Writes a Drain trace (docs/trace-format.md) from inside an instrumented process.
///
/// ```swift
/// let probe = try DrainProbe(path: "sync.jsonl", process: "SyncNotes", device: "iphone-lte")
/// probe.lifecycle(.active)
/// probe.net(.tx, bytes: 512, host: "api.example.com", interface: .cellular)
/// let notes = probe.measure("parse") { parse(response) }
/// ```
///
/// The header (with `start`, the wall-clock time of `t` = 0) is written when the probe is
/// created; events are stamped with `CLOCK_MONOTONIC` nanoseconds since then and with the
/// calling thread (`"main"` or its kernel thread id).
///
/// **Threads**: every method may be called from any thread. Each event is formatted on the
/// calling thread's stack, then copied into that thread's own buffer under that buffer's
/// lock, held only for the clock read and the copy; merges put the threads' lines in the
/// file in time order.
///
/// **Buffering**: events reach the file when a thread's buffer fills (its older half, with
/// the other threads' lines up to the same time), on
/// `flush()`, at each background memory sample (those older than one interval), on
/// `close()` or `deinit`, and at normal process exit (an `atexit` handler). A crash loses
/// what was still buffered; the file itself stays readable (whole lines, at worst a cut-off
/// last line that readers drop with a `truncated` warning).
///
/// **Errors**: failing to create the file throws from `init`. A write error later never
/// reaches the host app: the probe stops writing, keeps the error in `lastError` and counts
/// the events it drops in `droppedEvents`.
///
/// **Cost**: no allocation per event unless its strings add up to more than about 120
/// bytes; docs/probe.md gives the measured time per event.
public final class DrainProbe: Sendable {
    /// The trace file's path.
    public let path: String
    let writer: TraceWriter
    private let sampler: MemorySampler?

    /// Creates (or truncates) the trace file at `path`, writes its header, and starts
    /// memory sampling if `options` asks for it.
    ///
    /// - Parameters:
    ///   - process: the header's `process`, the traced program's name; left out when `nil`.
    ///   - device: the header's `device`, a device model hint such as `iphone-lte`.
    /// - Throws: `DrainProbeError` with operation `.open` if the file cannot be created or
    ///   its header written, `.startSampling` if the sampling thread cannot start.
    public init(path: String, process: String? = nil, device: String? = nil, options: Options = Options()) throws(DrainProbeError) {
        let clock = TraceClock.pairedWithWallClock()
        let bound = TraceHeader.bound(process: process, device: device)
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: bound)
        defer { memory.deallocate() }
        var header = JSONFormatter(memory)
        TraceHeader.write(process: process, pid: Int64(getpid()), device: device, startNanosecondsSinceEpoch: clock.wall, to: &header)
        let writer = try TraceWriter(path: path, capacity: options.bufferCapacity, origin: clock.monotonic, header: header.written)
        if let interval = options.memorySamplingInterval {
            do {
                let window = max(1_000_000, interval.traceNanoseconds)
                sampler = try MemorySampler(intervalNanoseconds: window) { [writer] in
                    if let footprint = MemoryFootprint.current() { writer.recordMemory(footprint: footprint) }
                    // Lines of the last interval stay buffered, for slices still running.
                    writer.flush(upTo: writer.elapsed() - window)
                }
            } catch {
                writer.close()
                throw DrainProbeError(operation: .startSampling, path: path, code: error.code)
            }
        } else {
            sampler = nil
        }
        self.path = path
        self.writer = writer
        ExitFlush.register(writer)
    }

    deinit {
        close()
    }

    /// Now on the trace's clock, to pass later as the start of a slice. O(1): one
    /// `clock_gettime`, a vDSO call on Linux.
    public func now() -> Instant {
        Instant(nanosecondsSinceStart: writer.elapsed())
    }

    /// Writes the buffered events to the file. Blocks for one `write(2)`.
    public func flush() {
        writer.flush()
    }

    /// Stops memory sampling, flushes and closes the file. Later events are dropped (and
    /// counted in `droppedEvents`). Idempotent; `deinit` does it too.
    public func close() {
        sampler?.stop()
        writer.close()
        ExitFlush.unregister(writer)
    }

    /// Stops the background memory sampling (and the periodic flush that goes with it);
    /// waits for a sample in progress. Idempotent.
    public func stopMemorySampling() {
        sampler?.stop()
    }

    /// Records a `memory` event with the footprint now, and returns it: on Linux resident
    /// memory (`/proc/self/statm`), on Darwin `phys_footprint`. `nil` (and no event) if the
    /// system does not say.
    @discardableResult
    public func sampleMemory() -> Int? {
        guard let footprint = MemoryFootprint.current() else { return nil }
        writer.recordMemory(footprint: footprint)
        return footprint
    }

    /// The first error writing or closing the trace, if any. After a write error the probe
    /// writes nothing more.
    public var lastError: DrainProbeError? { writer.lastError }

    /// Events not written because of a write error or because the probe was closed.
    public var droppedEvents: Int { writer.droppedEvents }
}
