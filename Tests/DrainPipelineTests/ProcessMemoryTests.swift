#if os(Linux)
import CMalloc
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

    /// The check, in a forked child: there no other test thread frees memory between its steps.
    /// glibc maps a block only when the heap's free space cannot hold it, so the blocks are
    /// larger than all of it. Exits 0, or the number of the step that failed.
    static func checkInChild(large: Int) -> Never {
        ProcessMemory.tuneForOneAnalysis()
        let free = mallinfo2().fordblks
        let block = (free / large + 2) * large
        guard let freedFirst = malloc(block + large), isMapped(freedFirst) else { _exit(1) }
        Glibc.free(freedFirst)
        guard let next = malloc(block), isMapped(next) else { _exit(2) }
        Glibc.free(next)
        guard let small = malloc(large / 4), !isMapped(small) else { _exit(3) }
        _exit(0)
    }

    @Test func largeBlocksStayMappedAfterALargerOneIsFreed() throws {
        // Read in the parent: the child of a multithreaded process runs no lazy initialiser.
        let large = ProcessMemory.largeBlockBytes
        let child = fork()
        if child == 0 { Self.checkInChild(large: large) }
        try #require(child > 0)
        // A child that does not finish within 30 s (a lock another thread held at the fork)
        // is killed and fails the test instead of hanging the suite.
        var status: Int32 = 0
        var reaped = waitpid(child, &status, WNOHANG)
        let deadline = Date().addingTimeInterval(30)
        while reaped == 0, Date() < deadline {
            usleep(10_000)
            reaped = waitpid(child, &status, WNOHANG)
        }
        if reaped == 0 {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            Issue.record("the child did not finish within 30 s")
            return
        }
        #expect(reaped == child)
        // Exited normally (low 7 bits 0) with status 0; else the step that failed.
        #expect(status & 0x7f == 0)
        #expect((status >> 8) & 0xff == 0, "step \((status >> 8) & 0xff) of the child failed")
    }
}
#endif
