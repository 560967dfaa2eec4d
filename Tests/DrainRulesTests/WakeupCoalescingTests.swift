@testable import DrainRules
import DrainTrace
import Testing

@Suite struct WakeupCoalescingTests {
    /// The count by the textbook greedy: windows sorted by end, a wakeup at the end of each
    /// window that no earlier wakeup serves.
    private func byEarliestEnd(_ windows: [(start: Nanoseconds, end: Nanoseconds)]) -> Int {
        var count = 0
        var last: Nanoseconds?
        for window in windows.sorted(by: { $0.end != $1.end ? $0.end < $1.end : $0.start < $1.start })
        where last.map({ window.start > $0 }) ?? true {
            count += 1
            last = window.end
        }
        return count
    }

    private func counted(_ windows: [(start: Nanoseconds, end: Nanoseconds)]) -> Int {
        var coalescing = WakeupCoalescing()
        for window in windows { coalescing.add(start: window.start, end: window.end) }
        return coalescing.wakeups
    }

    @Test func windowsByHand() {
        // [0, 10] and [5, 6] share a wakeup at 6; [7, 20] does not reach back to 6, so it
        // needs a second; [8, 9] is served by it (placed at 9); [10, 12] starts after 9.
        #expect(counted([(0, 10), (5, 6), (7, 20), (8, 9), (10, 12)]) == 3)
        // Touching windows share the instant: closed intervals.
        #expect(counted([(0, 5), (5, 9)]) == 1)
        #expect(counted([]) == 0)
    }

    @Test func sameCountAsClosingTheEarliestEndFirst() {
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<200 {
            var start: Nanoseconds = 0
            var windows: [(start: Nanoseconds, end: Nanoseconds)] = []
            for _ in 0..<next(60) {
                start += Nanoseconds(next(5))
                windows.append((start, start + Nanoseconds(next(12))))
            }
            #expect(counted(windows) == byEarliestEnd(windows))
        }
    }
}
