import DrainTrace
import Testing

@testable import DrainModel

/// The tail meter reads a replay of the run's radios as the bursts come (the run keeps no
/// segments); it must give what integrating every segment of the run gives.
@Suite struct RadioTailMeterTests {
    /// The tail energy after `burst` until `nextStart`, from all of the link's segments: tail
    /// and FACH time at its own average power, connected time at the model's connected power,
    /// promotion and idle time not at all.
    func integrated(_ segments: [RadioSegment], after burst: Burst, until nextStart: Nanoseconds, model: DeviceModel) -> Double {
        var joules = 0.0
        for segment in segments where segment.link == burst.link && segment.state != .idle && segment.state != .promotion {
            let overlap = min(segment.end, nextStart) - max(segment.start, burst.end)
            guard overlap > 0 else { continue }
            let power =
                segment.state == .active
                ? RadioTail.connectedPower(of: burst.link, model: model) : segment.joules / Clock.seconds(segment.end - segment.start)
            joules += Clock.seconds(overlap) * power
        }
        return joules
    }

    @Test(arguments: ["iphone-lte", "iphone-5g-nsa", "android-pixel-lte"])
    func theMeterGivesWhatEverySegmentGives(modelName: String) throws {
        let model = try builtinModel(modelName)
        // A long run on both radios: enough segments that the meter drops those it has passed
        // several times over.
        let timeline = randomNetRun(seed: 41, events: 3_000, maxGap: 40, maxBytes: 100_000, maxSpan: 1)
        let priced = Pricer(model: model).price(timeline)
        let segments = Pricer(model: model).radioSegments(of: timeline)
        let bursts = BurstDetector.bursts(in: priced, model: model, by: .link)
        var checked = 0
        for link in [LinkKind.wifi, .cellular] {
            let ofLink = bursts.filter { $0.link == link }
            #expect(ofLink.count > 300)
            #expect(segments.filter { $0.link == link }.count > 2 * 1024)
            var meter = RadioTail.Meter(link: link, timeline: timeline, model: model)
            for (index, burst) in ofLink.enumerated() {
                let nextStart = index + 1 < ofLink.count ? ofLink[index + 1].start : .max
                let expected = integrated(segments, after: burst, until: nextStart, model: model)
                let measured = meter.energy(after: burst, until: nextStart)
                #expect(measured == expected, "burst \(index) on \(link)")
                checked += 1
            }
        }
        #expect(checked == bursts.count)
    }
}
