import CMappedFile

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A regular capture file mapped read-only, whose records `PacketPipe` decodes where they lie
/// in the page cache: no copy into a buffer of ours (the kernel's `_copy_to_iter`, the largest
/// single cost of a run on a 1 GiB capture when the file was read with `pread`).
///
/// The mapping is guarded (`drain_map_guarded`): if the file shrinks while it is read, the
/// pages past its new end read as zeros instead of killing the process, and `shrank` says so;
/// the reader stops and the import fails as for any capture that shrank while read. Pages
/// read are dropped from the process (`dropPages(through:)`) as the reader moves on, so the
/// resident memory the mapping adds stays a few batches, whatever the file's size. Unmapped
/// when the last reference goes.
final class MappedCapture: @unchecked Sendable {
    /// The whole file as mapped.
    let bytes: UnsafeRawBufferPointer
    /// Everything before this offset was dropped, a page boundary.
    private var dropped = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the first `size` bytes of `descriptor`; `nil` if the file cannot be mapped (then
    /// libpcap reads it).
    init?(descriptor: Int32, size: Int) {
        guard size > 0, let start = drain_map_guarded(descriptor, size) else { return nil }
        bytes = UnsafeRawBufferPointer(start: start, count: size)
        madvise(UnsafeMutableRawPointer(mutating: start), size, MADV_SEQUENTIAL)
    }

    deinit {
        if let start = bytes.baseAddress { drain_unmap_guarded(start, bytes.count) }
    }

    /// Whether a read found the file shorter than when it was mapped.
    var shrank: Bool {
        bytes.baseAddress.map { drain_mapping_faulted($0) != 0 } ?? false
    }

    /// Drops the mapped pages wholly before the end of `window`, a part of the mapping that
    /// nothing reads again, from the process (the page cache keeps them). Called by the one
    /// reading thread.
    func dropPages(through window: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, let windowStart = window.baseAddress else { return }
        let end = (windowStart - start + window.count) / Self.pageSize * Self.pageSize
        guard end > dropped else { return }
        madvise(UnsafeMutableRawPointer(mutating: start + dropped), end - dropped, MADV_DONTNEED)
        dropped = end
    }
}
