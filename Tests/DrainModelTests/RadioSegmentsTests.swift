import DrainTrace
import Testing

@testable import DrainModel

/// `RadioSegments` keeps segments by column: what goes in comes out, in order.
@Suite struct RadioSegmentsTests {
    /// One segment of every link and state, with distinct times and joules.
    static let mixed: [RadioSegment] = LinkKind.allCases.flatMap { link in
        RadioState.allCases.enumerated().map { offset, state in
            let start = Nanoseconds(link.rawValue) * 1_000_000 + Nanoseconds(offset) * 1000
            return RadioSegment(link: link, state: state, start: start, end: start + 999, joules: Double(start) / 7)
        }
    }

    @Test func segmentsReadBackAsAppended() {
        var segments = RadioSegments()
        for segment in Self.mixed { segments.append(segment) }
        #expect(segments.count == LinkKind.allCases.count * RadioState.allCases.count)
        #expect(Array(segments) == Self.mixed)
        #expect(segments[7] == Self.mixed[7])
        segments.releaseUnusedCapacity()
        #expect(Array(segments) == Self.mixed)
    }

    /// Ends are kept only where they differ from the next start: back-to-back segments, gaps,
    /// overlaps, zero-length segments and times at the ends of the range all read back.
    @Test(arguments: [
        [(0, 10), (10, 25), (25, 25), (25, 90)],
        [(0, 10), (12, 25), (20, 30), (30, 31)],
        [(Nanoseconds.min, 0), (0, Nanoseconds.max), (Nanoseconds.max, Nanoseconds.max)],
        [(Nanoseconds.max, Nanoseconds.min), (Nanoseconds.min, Nanoseconds.max)],
        [(5, 4)],
    ] as [[(Nanoseconds, Nanoseconds)]])
    func endsReadBackWhetherOrNotTheNextSegmentStartsThere(_ times: [(Nanoseconds, Nanoseconds)]) {
        let expected = times.enumerated().map { index, time in
            RadioSegment(
                link: index % 2 == 0 ? .cellular : .wifi, state: RadioState.allCases[index % RadioState.allCases.count],
                start: time.0, end: time.1, joules: Double(index) + 0.5)
        }
        var segments = RadioSegments(expected)
        #expect(Array(segments) == expected)
        #expect(segments.indices.map { segments[$0] } == expected)
        segments.append(contentsOf: RadioSegments(expected))
        #expect(Array(segments) == expected + expected)
        #expect(segments == RadioSegments(expected + expected))
        #expect(segments != RadioSegments(expected + expected.dropLast()))
    }

    /// Segments across several blocks, with gaps and overlaps at and around the blocks' edges,
    /// read back as appended, after giving back room, and after appending a list to another.
    @Test func segmentsReadBackAcrossBlocks() {
        let length = RadioSegments.blockLength
        var time: Nanoseconds = 0
        let expected = (0..<(2 * length + length / 2)).map { index in
            // Every 7th segment leaves a gap after it, every 11th overlaps the next; the
            // segments on either side of each block edge do both.
            let start = time
            var end = start + 1_000 + Nanoseconds(index % 5)
            if index % 7 == 0 || (index + 1) % length == 0 { end -= 300 }
            if index % 11 == 0 || index % length == 0 { end += 200 }
            time = start + 1_000 + Nanoseconds(index % 5)
            return RadioSegment(
                link: index % 3 == 0 ? .wifi : .cellular, state: RadioState.allCases[index % RadioState.allCases.count],
                start: start, end: end, joules: Double(index) / 3)
        }
        var segments = RadioSegments(expected)
        #expect(segments.count == expected.count)
        #expect(Array(segments) == expected)
        for index in [0, length - 2, length - 1, length, length + 1, 2 * length - 1, 2 * length, expected.count - 1] {
            #expect(segments[index] == expected[index], "\(index)")
        }
        segments.releaseUnusedCapacity()
        #expect(Array(segments) == expected)
        var joined = RadioSegments(expected.prefix(length - 3))
        joined.append(contentsOf: RadioSegments(expected.dropFirst(length - 3)))
        #expect(joined == segments)
        #expect(joined != RadioSegments(expected.dropLast()))
    }

    @Test func appendingKeepsTheFirstSegmentsFirst() {
        var wifi = RadioSegments(Self.mixed.filter { $0.link == .wifi })
        let cellular = RadioSegments(Self.mixed.filter { $0.link == .cellular })
        wifi.append(contentsOf: cellular)
        #expect(Array(wifi) == Self.mixed.filter { $0.link == .wifi } + Self.mixed.filter { $0.link == .cellular })
        #expect(RadioSegments([]) == [])
    }

    /// A priced run on both radios hands over its Wi-Fi segments, then its cellular ones, each
    /// in time order and back to back, as `RadioActivity.segments` promises.
    @Test func aPricedRunListsWiFiThenCellularInTimeOrder() throws {
        var timeline = Timeline()
        for (time, link) in [(0.0, LinkKind.cellular), (1, .wifi), (30, .cellular), (31, .wifi), (70, .cellular)] {
            timeline.append(
                Event(time: Clock.nanoseconds(time), kind: .net, code: NetDirection.tx.rawValue, code2: link.rawValue, amount: 5_000))
        }
        let segments = Array(Pricer(model: try builtinModel("iphone-lte")).price(timeline).radio.segments)
        let firstCellular = try #require(segments.firstIndex { $0.link == .cellular })
        #expect(firstCellular > 0)
        #expect(segments[..<firstCellular].allSatisfy { $0.link == .wifi })
        #expect(segments[firstCellular...].allSatisfy { $0.link == .cellular })
        for track in [segments[..<firstCellular], segments[firstCellular...]] {
            #expect(zip(track, track.dropFirst()).allSatisfy { $0.end <= $1.start })
        }
    }
}
