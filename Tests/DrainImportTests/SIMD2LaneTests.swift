import Testing

@testable import DrainImport

/// A flow's per-direction counters are updated through `set(lane:to:)` and
/// `add(_:toLane:)`; each must touch its lane only.
struct SIMD2LaneTests {
    @Test func setChangesOnlyItsLane() {
        var vector = SIMD2<Int64>(10, 20)
        vector.set(lane: 0, to: -5)
        #expect(vector == SIMD2(-5, 20))
        vector.set(lane: 1, to: .max)
        #expect(vector == SIMD2(-5, .max))
        var narrow = SIMD2<Int32>(-1, -1)
        narrow.set(lane: 1, to: 7)
        #expect(narrow == SIMD2(-1, 7))
    }

    @Test func addChangesOnlyItsLaneAndWraps() {
        var counts = SIMD2<UInt32>(0, 0)
        for _ in 0..<3 { counts.add(1, toLane: 1) }
        counts.add(2, toLane: 0)
        #expect(counts == SIMD2(2, 3))
        counts.add(.max, toLane: 0)
        #expect(counts == SIMD2(1, 3))
        var bytes = SIMD2<Int64>(100, 200)
        bytes.add(-150, toLane: 1)
        #expect(bytes == SIMD2(100, 50))
    }
}
