import DrainTrace
import Testing

@testable import DrainModel

@Suite struct RadioBusyTimeTests {
    func seconds(_ value: Double) -> Nanoseconds { Clock.nanoseconds(value) }

    /// Wi-Fi: active 1–2 s, tail 2–2.2 s, idle 2.2–10 s, active 10–11 s. Cellular: promotion
    /// 0–0.26 s, active 0.26–5 s, tail 5–15 s, idle 15–40 s.
    func radio() -> RadioActivity {
        func segment(_ link: LinkKind, _ state: RadioState, _ start: Double, _ end: Double) -> RadioSegment {
            RadioSegment(link: link, state: state, start: seconds(start), end: seconds(end), joules: 1)
        }
        return RadioActivity(segments: [
            segment(.wifi, .active, 1, 2), segment(.wifi, .tail, 2, 2.2), segment(.wifi, .idle, 2.2, 10),
            segment(.wifi, .active, 10, 11),
            segment(.cellular, .promotion, 0, 0.26), segment(.cellular, .active, 0.26, 5),
            segment(.cellular, .tail, 5, 15), segment(.cellular, .idle, 15, 40),
        ])
    }

    @Test func windowsCountTheNonIdleTimeOfTheirRadioOnly() {
        let busy = RadioBusyTime(radio())
        // Wi-Fi 1.5–10.5 s: 0.5 s active, 0.2 s tail, the idle stretch not, 0.5 s active.
        #expect(busy.busy(on: .wifi, from: seconds(1.5), to: seconds(10.5)) == seconds(0.5) + seconds(0.2) + seconds(0.5))
        // Cellular 4–20 s: 1 s active, 10 s tail, idle 15–20 s not.
        #expect(busy.busy(on: .cellular, from: seconds(4), to: seconds(20)) == seconds(1) + seconds(10))
        // Before, after and between the segments, and an empty window.
        #expect(busy.busy(on: .wifi, from: 0, to: seconds(1)) == 0)
        #expect(busy.busy(on: .wifi, from: seconds(3), to: seconds(9)) == 0)
        #expect(busy.busy(on: .wifi, from: seconds(12), to: seconds(50)) == 0)
        #expect(busy.busy(on: .cellular, from: seconds(3), to: seconds(3)) == 0)
        // The whole run: the promotion counts, as the radio is up during it.
        #expect(busy.busy(on: .cellular, from: 0, to: seconds(100)) == seconds(15))
    }

    @Test func aRunWithoutOneRadioHasNoBusyTimeOnIt() {
        let onlyWiFi = RadioActivity(segments: RadioSegments(radio().segments.filter { $0.link == .wifi }))
        let busy = RadioBusyTime(onlyWiFi)
        #expect(busy.busy(on: .cellular, from: 0, to: seconds(100)) == 0)
        #expect(busy.busy(on: .wifi, from: 0, to: seconds(100)) == seconds(1) + seconds(0.2) + seconds(1))
        #expect(RadioBusyTime(RadioActivity()).busy(on: .wifi, from: 0, to: seconds(100)) == 0)
    }

    /// On a priced run (LTE, and 5G NSA with its two legs on one radio), every window agrees with the overlap summed over all its radio's segments.
    @Test(arguments: ["iphone-lte", "iphone-5g-nsa"])
    func pricedWindowsAgreeWithASumOverEverySegment(modelName: String) throws {
        let model = try builtinModel(modelName)
        var timeline = Timeline()
        var random = SplitMix64(seed: 14)
        var time: Nanoseconds = 0
        for _ in 0..<400 {
            time += Nanoseconds(random.next() % UInt64(seconds(30)))
            let link: LinkKind = random.next() % 3 == 0 ? .wifi : .cellular
            timeline.append(
                Event(
                    time: time, kind: .net, code: NetDirection.rx.rawValue, code2: link.rawValue,
                    amount: Int64(random.next() % 200_000), duration: Nanoseconds(random.next() % UInt64(seconds(2)))))
        }
        let radio = Pricer(model: model).price(timeline).radio
        let busy = RadioBusyTime(radio)
        func summed(_ link: LinkKind, _ start: Nanoseconds, _ end: Nanoseconds) -> Nanoseconds {
            radio.segments.filter { ($0.link == .wifi) == (link == .wifi) && $0.state != .idle }
                .reduce(0) { $0 + max(0, min($1.end, end) - max($1.start, start)) }
        }
        #expect(radio.segments.count > 100)
        for _ in 0..<300 {
            let start = Nanoseconds(random.next() % UInt64(time))
            let end = start + Nanoseconds(random.next() % UInt64(seconds(120)))
            for link in [LinkKind.wifi, .cellular] {
                #expect(busy.busy(on: link, from: start, to: end) == summed(link, start, end))
            }
        }
    }
}
