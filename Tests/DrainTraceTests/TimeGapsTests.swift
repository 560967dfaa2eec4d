import Testing

@testable import DrainTrace

/// `TimeGaps`: stretches without events longer than the threshold, measured from the furthest
/// end of the events before them.
@Suite struct TimeGapsTests {
    let hour = TimeGaps.defaultThreshold

    @Test func gapsRunFromTheFurthestEventEndToTheNextEvent() {
        var builder = TimelineBuilder()
        builder.cpu(0, duration: 100)  // reaches 100 s
        builder.wakeup(50)
        builder.wakeup(3_800)  // 3700 s after 100 s: a gap
        builder.wakeup(7_300)  // 3500 s later: none
        let timeline = builder.build(end: 11_000)  // 3700 s after the last event: a gap at the end
        let gaps = TimeGaps.detect(in: timeline, threshold: hour)
        #expect(gaps.gaps == [TimeGap(start: 100_000_000_000, end: 3_800_000_000_000), TimeGap(start: 7_300_000_000_000, end: 11_000_000_000_000)])
        #expect(gaps.total == 7_400_000_000_000)
        #expect(!gaps.leading && gaps.trailing)
        let segments = gaps.segments(end: 11_000_000_000_000)
        #expect(segments.map(\.start) == [0, 3_800_000_000_000] && segments.map(\.end) == [100_000_000_000, 7_300_000_000_000])
        #expect(gaps.separates(50_000_000_000, 3_800_000_000_000))
        #expect(!gaps.separates(3_800_000_000_000, 7_300_000_000_000))
        // 0–4000 s overlaps the first gap from 100 s to 3800 s.
        #expect(gaps.overlap(from: 0, to: 4_000_000_000_000) == 3_700_000_000_000)
        #expect(gaps.activeTime(from: 0, to: 4_000_000_000_000) == 300_000_000_000)
    }

    @Test func aGapBeforeTheFirstEventLeavesNoSegmentBeforeIt() {
        var builder = TimelineBuilder()
        builder.wakeup(5_000)
        let gaps = TimeGaps.detect(in: builder.build(), threshold: hour)
        #expect(gaps.gaps == [TimeGap(start: 0, end: 5_000_000_000_000)] && gaps.leading)
        let segments = gaps.segments(end: 5_000_000_000_000)
        #expect(segments.count == 1 && segments[0].start == 5_000_000_000_000 && segments[0].end == 5_000_000_000_000)
    }

    @Test func aStretchOfExactlyTheThresholdIsNoGap() {
        var builder = TimelineBuilder()
        builder.wakeup(0)
        builder.wakeup(3_600)
        #expect(TimeGaps.detect(in: builder.build(), threshold: hour).isEmpty)
    }

    /// Read in pieces, a later piece measures from its own first event: a slice of an earlier
    /// piece that reaches past it shortens the gaps the piece found, or removes them.
    @Test func piecesJoinedMeasureFromTheEarlierPiecesReach() {
        var builder = TimelineBuilder()
        builder.cpu(0, duration: 5_000)  // reaches 5000 s
        builder.wakeup(10)
        builder.wakeup(20)
        builder.wakeup(3_700)  // 3680 s after 20 s, but within the slice: no gap
        builder.wakeup(9_000)  // 4000 s after the slice's end: a gap from 5000 s
        builder.wakeup(9_100)
        let timeline = builder.build(end: 9_200)
        let second: Nanoseconds = 1_000_000_000
        for pieces in 1...6 {
            let gaps = TimeGaps.detect(in: timeline, threshold: hour, end: nil, pieces: pieces, threads: 2)
            #expect(gaps.gaps == [TimeGap(start: 5_000 * second, end: 9_000 * second)], "\(pieces) pieces")
            #expect(!gaps.leading && !gaps.trailing)
        }
    }

    /// Runs of slices and instants with gaps of every size around the threshold give the same
    /// gaps, flags and total in any number of pieces, on one thread or two.
    @Test func anyNumberOfPiecesFindsTheGapsOfOnePass() {
        var random = SplitMix64(seed: 34)
        for run in 0..<20 {
            var builder = TimelineBuilder()
            var time = Double(random.next() % 5_000)
            for _ in 0..<(50 + Int(random.next() % 300)) {
                if random.next() % 3 == 0 {
                    builder.cpu(time, duration: Double(random.next() % 8_000))
                } else {
                    builder.wakeup(time)
                }
                time += random.next() % 4 == 0 ? Double(3_000 + random.next() % 2_000) : Double(random.next() % 100)
            }
            let timeline = builder.build(end: time + Double(random.next() % 6_000))
            let onePass = TimeGaps.detect(in: timeline, threshold: hour, end: nil, pieces: 1, threads: 1)
            #expect(onePass.gaps.count > 0, "run \(run)")
            for pieces in 2...7 {
                for threads in 1...2 {
                    let joined = TimeGaps.detect(in: timeline, threshold: hour, end: nil, pieces: pieces, threads: threads)
                    #expect(joined == onePass, "run \(run), \(pieces) pieces, \(threads) threads")
                }
            }
        }
    }

    @Test func sortingCountsBackwardJumpsWithTheLargestStep() {
        var timeline = Timeline()
        for seconds in [0.0, 10, 4, 20, 18] { timeline.append(Event(time: Clock.nanoseconds(seconds), kind: .wakeup)) }
        var diagnostics = ImportDiagnostics()
        timeline.finish(diagnostics: &diagnostics)
        #expect(timeline.backwardJumps == BackwardJumps(count: 2, largest: 6_000_000_000))
        #expect(diagnostics.entries.first?.message.contains("the largest step back 6.000 s") == true)
        #expect(TimeGaps.describe(126_230_370_000_000_000) == "126230370 s (1461.0 d)")
    }
}
