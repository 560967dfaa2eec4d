#if canImport(CMalloc) && os(Linux)
import CMalloc
#endif

/// How the process's heap is kept: glibc's malloc, tuned for one analysis per process.
public enum ProcessMemory {
    /// Sets glibc's malloc up for one analysis per process. Call it first, before any thread
    /// starts.
    ///
    /// **One arena.** glibc gives each new thread an arena of its own (up to eight per core).
    /// The threads of an analysis (a trace's later half, the packet reader, a rule beside the
    /// report's figures) are short-lived and hand their results to others: memory a worker
    /// freed stayed in its arena, where the next phase, allocating on another thread, could not
    /// reuse it. One arena lowered the peak by 20 MiB on a 10 M-event trace and by 13 MiB on a
    /// 1 GiB capture, at no measurable cost in time: the hot paths do not allocate per event,
    /// so threads seldom wait on the arena's lock.
    ///
    /// **A fixed mmap threshold of `largeBlockBytes`.** An analysis is made of large columns
    /// that grow by doubling and are freed when their phase ends. glibc maps blocks above its
    /// threshold on their own, but the first time such a block is freed it raises the threshold
    /// to that block's size (up to 32 MiB), so later columns come from the heap, where the
    /// space a freed one leaves is kept resident and, split among smaller blocks, seldom fits
    /// the next large one. Fixing the threshold keeps every large column mapped on its own and
    /// unmapped when freed: the peak RSS follows the live heap (11 MiB lower on the 1 GiB
    /// sessions capture, docs/performance.md). 1 MiB rather than glibc's initial 128 KiB,
    /// because mapping each block of a few hundred KiB anew (and faulting its pages in) cost
    /// 10 % in time on that capture, for 3 MiB more.
    public static func tuneForOneAnalysis() {
        #if canImport(CMalloc) && os(Linux)
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_MMAP_THRESHOLD, Int32(largeBlockBytes))
        #endif
    }

    /// Blocks of at least this many bytes are mapped on their own (`tuneForOneAnalysis`).
    public static let largeBlockBytes = 1 << 20

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
