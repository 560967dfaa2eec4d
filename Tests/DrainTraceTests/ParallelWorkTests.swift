import DrainTrace
import Testing

@Suite("Work shared out over threads")
struct ParallelWorkTests {
    @Test("every piece runs once and results come back in index order", arguments: [1, 2, 3, 16])
    func orderAndCount(threads: Int) {
        let results = ParallelWork.map(100, threads: threads) { index -> Int in
            // Uneven pieces, so threads take indices in no fixed pattern.
            var sum = 0
            for step in 0..<(index % 7) * 1_000 { sum &+= step }
            return index * 10 + (sum == -1 ? 1 : 0)
        }
        #expect(results == (0..<100).map { $0 * 10 })
    }

    @Test("no pieces, one piece, and more threads than pieces")
    func edges() {
        #expect(ParallelWork.map(0, threads: 4) { $0 }.isEmpty)
        #expect(ParallelWork.map(1, threads: 4) { $0 + 7 } == [7])
        #expect(ParallelWork.map(3, threads: 8) { "\($0)" } == ["0", "1", "2"])
    }

    @Test("a joined thread's writes are seen by its starter")
    func joinedThread() {
        final class Box: @unchecked Sendable { var value = 0 }
        let box = Box()
        let thread = JoinableThread.start { box.value = 42 }
        thread?.join()
        #expect(box.value == 42)
    }

    @Test("the default thread count is between 1 and the limit")
    func defaultThreads() {
        #expect((1...2).contains(ParallelWork.defaultThreads()))
        #expect(ParallelWork.defaultThreads(limit: 1) == 1)
    }
}
