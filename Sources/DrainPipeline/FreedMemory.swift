#if canImport(CMalloc) && os(Linux)
import CMalloc
#endif

/// Hands memory the process freed back to the system.
///
/// An import's working set (flow states, coalescing windows, read-ahead batches, parse
/// buffers) is freed when the import ends, but glibc keeps freed heap memory for later
/// allocations, and pricing and the rules, which allocate differently, do not reuse most of
/// it: on a 1 GiB capture about 20 MiB stayed resident through the rules, raising the peak.
/// `malloc_trim` releases it. A few milliseconds; nothing elsewhere.
enum FreedMemory {
    static func release() {
        #if canImport(CMalloc) && os(Linux)
        _ = malloc_trim(0)
        #endif
    }
}
