#if canImport(CMalloc) && os(Linux)
import CMalloc
#endif

/// How the process's heap is kept: glibc's malloc, tuned for one analysis per process.
public enum ProcessMemory {
    /// Has every thread allocate from one malloc arena, where glibc gives each new thread an
    /// arena of its own (up to eight per core).
    ///
    /// The threads of an analysis (a trace's later half, the packet reader, a rule beside the
    /// report's figures) are short-lived and hand their results to others: memory a worker
    /// freed stayed in its arena, where the next phase, allocating on another thread, could not
    /// reuse it. One arena lowered the peak by 20 MiB on a 10 M-event trace and by 13 MiB on a
    /// 1 GiB capture, at no measurable cost in time: the hot paths do not allocate per event,
    /// so threads seldom wait on the arena's lock. Call it first, before any thread starts.
    public static func shareOneArena() {
        #if canImport(CMalloc) && os(Linux)
        _ = mallopt(M_ARENA_MAX, 1)
        #endif
    }

    /// Hands memory the process freed back to the system.
    ///
    /// An import's working set (flow states, coalescing windows, read-ahead batches, parse
    /// buffers) is freed when the import ends, but glibc keeps freed heap memory for later
    /// allocations, and pricing and the rules, which allocate differently, do not reuse most of
    /// it: on a 1 GiB capture about 20 MiB stayed resident through the rules, raising the peak.
    /// `malloc_trim` releases it. A few milliseconds; nothing elsewhere.
    static func releaseFreed() {
        #if canImport(CMalloc) && os(Linux)
        _ = malloc_trim(0)
        #endif
    }
}
