import DrainTrace
import Testing

@testable import DrainRules

/// A rule's list of the rows of some kinds holds exactly the rows a filter over every row keeps,
/// in order, whether the kinds interleave, none is included or all are.
struct TimelineRowsTests {
    @Test func theRowsOfSomeKindsAreTheRowsAFilterKeeps() {
        var builder = TimelineBuilder()
        // A pseudo-random order of kinds, so that every kind follows every other.
        var state: UInt32 = 12_345
        for index in 0..<3_000 {
            state = state &* 1_103_515_245 &+ 12_345
            let t = Double(index) * 0.01
            switch (state >> 16) % 4 {
            case 0: builder.cpu(t, duration: 0.001, thread: "main")
            case 1: builder.frame(t, changed: index % 2 == 0)
            case 2: builder.memory(t, footprint: 1_000_000)
            default: builder.wakeup(t)
            }
        }
        let timeline = builder.build(end: 40)
        var every: EventKindSet = []
        for kind in EventKind.allCases { every.insert(kind) }
        let sets: [EventKindSet] = [[.cpu], [.frame, .wakeup], [.net], every]
        for kinds in sets {
            let expected = (0..<timeline.count).filter { kinds.contains(timeline.kind[$0]) }
            #expect(timeline.rows(of: kinds) == expected.map(UInt32.init))
        }
        let cpu = timeline.rows(of: [.cpu]).count
        #expect(cpu > 600 && cpu < 900)
        #expect(Timeline().rows(of: [.cpu]).isEmpty)
    }
}
