#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Flushes every open trace when the process exits normally (`exit()`, or returning from
/// `main`), through one `atexit` handler installed with the first trace.
///
/// A crash or a kill skips `atexit`: the file then ends with the last flushed line (see
/// `DrainProbe.Options.memorySamplingInterval` for the periodic flush that bounds the loss).
enum ExitFlush {
    private static let registry = Registry()

    static func register(_ writer: TraceWriter) {
        registry.add(writer)
    }

    static func unregister(_ writer: TraceWriter) {
        registry.remove(writer)
    }

    /// Weak references to the open writers, so that a probe that is released still closes
    /// in its `deinit`.
    private final class Registry: @unchecked Sendable {
        private struct Entry {
            weak var writer: TraceWriter?
        }

        private let lock = ProbeLock()
        private var entries: [Entry] = []
        private var installed = false

        func add(_ writer: TraceWriter) {
            lock.withLock {
                entries.removeAll { $0.writer == nil }
                entries.append(Entry(writer: writer))
                if !installed {
                    installed = true
                    atexit { ExitFlush.registry.flushAll() }
                }
            }
        }

        func remove(_ writer: TraceWriter) {
            lock.withLock { entries.removeAll { $0.writer == nil || $0.writer === writer } }
        }

        /// Flushes outside the registry's lock, so a writer's lock is never taken under it.
        func flushAll() {
            let writers = lock.withLock { entries.compactMap(\.writer) }
            for writer in writers { writer.flush() }
        }
    }
}
