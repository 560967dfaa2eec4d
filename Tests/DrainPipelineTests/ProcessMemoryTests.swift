#if os(Linux)
import DrainPipeline
import Foundation
import Glibc
import Testing

/// `ProcessMemory.tuneForOneAnalysis` fixes glibc's mmap threshold: a large block is mapped on
/// its own even after a larger mapped block was freed, which without the fixed threshold
/// raises the threshold past it and sends the next large block to the heap. Not under a
/// sanitizer, whose allocator replaces glibc's.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["DRAIN_TEST_SANITIZER"] == nil)) struct ProcessMemoryTests {
    /// Whether glibc mapped the block at `pointer` on its own: bit 1 (IS_MMAPPED) of the size
    /// word glibc keeps just before every block it hands out.
    static func isMapped(_ pointer: UnsafeMutableRawPointer) -> Bool {
        UnsafeRawPointer(pointer).load(fromByteOffset: -MemoryLayout<Int>.size, as: UInt.self) & 2 != 0
    }

    @Test func largeBlocksStayMappedAfterALargerOneIsFreed() throws {
        ProcessMemory.tuneForOneAnalysis()
        let large = ProcessMemory.largeBlockBytes
        let freedFirst = try #require(malloc(8 * large))
        #expect(Self.isMapped(freedFirst))
        free(freedFirst)
        let next = try #require(malloc(2 * large))
        defer { free(next) }
        #expect(Self.isMapped(next), "a 2 MiB block after an 8 MiB one was freed comes from the heap")
        let small = try #require(malloc(large / 4))
        defer { free(small) }
        #expect(!Self.isMapped(small), "a block below the threshold is mapped on its own")
    }
}
#endif
