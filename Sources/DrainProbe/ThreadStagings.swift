#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's staging buffers, one per trace it wrote to, kept in a
/// thread-specific slot: finding the buffer is a slot read and a comparison, and only a
/// thread's first event for a trace registers a buffer with the writer.
///
/// When the thread exits, its buffers are retired; the writer merges what they still hold
/// and then forgets them.
final class ThreadStagings {
    private var entries: [(writer: UInt64, staging: StagingBuffer)] = []
    /// The writer of the last lookup (ids start at 1) and its buffer, which `entries` keeps.
    private var recentWriter: UInt64 = 0
    private var recent: Unmanaged<StagingBuffer>?

    /// The calling thread's buffer for `writer`, registered with it on first use.
    ///
    /// Unretained, to spare two atomic reference-count updates per event: the thread's table
    /// holds the buffer for as long as the thread can call this.
    @inline(__always)
    static func staging(for writer: TraceWriter) -> Unmanaged<StagingBuffer> {
        guard let stored = pthread_getspecific(slot) else {
            let table = ThreadStagings()
            pthread_setspecific(slot, Unmanaged.passRetained(table).toOpaque())
            return table.lookUp(writer)
        }
        return Unmanaged<ThreadStagings>.fromOpaque(stored)._withUnsafeGuaranteedRef { table in
            if table.recentWriter == writer.id, let recent = table.recent { return recent }
            return table.lookUp(writer)
        }
    }

    private func lookUp(_ writer: TraceWriter) -> Unmanaged<StagingBuffer> {
        // Buffers of closed traces take no more lines: let them go.
        entries.removeAll { $0.staging.isStopped && $0.writer != writer.id }
        let staging = entries.first { $0.writer == writer.id }?.staging ?? {
            let staging = writer.makeStaging()
            entries.append((writer.id, staging))
            return staging
        }()
        recentWriter = writer.id
        recent = Unmanaged.passUnretained(staging)
        return Unmanaged.passUnretained(staging)
    }

    private func retire() {
        for entry in entries { entry.staging.retire() }
    }

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        #if os(Linux)
        pthread_key_create(&key) { stored in
            Unmanaged<ThreadStagings>.fromOpaque(stored!).takeRetainedValue().retire()
        }
        #else
        pthread_key_create(&key) { stored in
            Unmanaged<ThreadStagings>.fromOpaque(stored).takeRetainedValue().retire()
        }
        #endif
        return key
    }()
}
