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
