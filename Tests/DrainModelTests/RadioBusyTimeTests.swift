import DrainTrace
import Testing

@testable import DrainModel

@Suite struct RadioBusyTimeTests {
    func seconds(_ value: Double) -> Nanoseconds { Clock.nanoseconds(value) }

    /// Wi-Fi: active 1–2 s, tail 2–2.2 s, idle 2.2–10 s, active 10–11 s. Cellular: promotion
    /// 0–0.26 s, active 0.26–5 s, tail 5–15 s, idle 15–40 s.
    func segments() -> [RadioSegment] {
        func segment(_ link: LinkKind, _ state: RadioState, _ start: Double, _ end: Double) -> RadioSegment {
            RadioSegment(link: link, state: state, start: seconds(start), end: seconds(end), joules: 1)
        }
        return [
            segment(.wifi, .active, 1, 2), segment(.wifi, .tail, 2, 2.2), segment(.wifi, .idle, 2.2, 10),
            segment(.wifi, .active, 10, 11),
            segment(.cellular, .promotion, 0, 0.26), segment(.cellular, .active, 0.26, 5),
            segment(.cellular, .tail, 5, 15), segment(.cellular, .idle, 15, 40),
        ]
    }

    /// The busy time of each window, fed `segments`.
    func busy(_ windows: [(LinkKind, Double, Double)], fed segments: [RadioSegment]) -> [Nanoseconds] {
        var busy = RadioBusyTime(windows: windows.map { RadioBusyTime.Window(radio: $0.0, start: seconds($0.1), end: seconds($0.2)) })
        for segment in segments { busy.record(segment) }
        return busy.busy
    }

    @Test func windowsCountTheNonIdleTimeOfTheirRadioOnly() {
        let measured = busy(
            [
                // Wi-Fi 1.5–10.5 s: 0.5 s active, 0.2 s tail, the idle stretch not, 0.5 s active.
                (.wifi, 1.5, 10.5),
                // Cellular 4–20 s: 1 s active, 10 s tail, idle 15–20 s not.
                (.cellular, 4, 20),
                // Before, after and between the segments, and an empty window.
                (.wifi, 0, 1), (.wifi, 3, 9), (.wifi, 12, 50), (.cellular, 3, 3),
                // The whole run: the promotion counts, as the radio is up during it.
                (.cellular, 0, 100),
            ], fed: segments())
        #expect(measured == [seconds(0.5) + seconds(0.2) + seconds(0.5), seconds(1) + seconds(10), 0, 0, 0, 0, seconds(15)])
    }

    @Test func aRunWithoutOneRadioHasNoBusyTimeOnIt() throws {
        let onlyWiFi = segments().filter { $0.link == .wifi }
        #expect(busy([(.cellular, 0, 100), (.wifi, 0, 100)], fed: onlyWiFi) == [0, seconds(1) + seconds(0.2) + seconds(1)])
        #expect(busy([(.wifi, 0, 100)], fed: []) == [0])
        #expect(RadioBusyTime.measure([], in: Timeline(), model: try builtinModel("iphone-lte")).isEmpty)
    }

    /// On a priced run (LTE, and 5G NSA with its two legs on one radio), every window agrees with the overlap summed over all its radio's segments.
    @Test(arguments: ["iphone-lte", "iphone-5g-nsa"])
    func pricedWindowsAgreeWithASumOverEverySegment(modelName: String) throws {
        let model = try builtinModel(modelName)
        let timeline = randomNetRun(seed: 14, events: 400, maxGap: 30, maxBytes: 200_000, maxSpan: 2)
        let time = timeline.time.last ?? 0
        var random = SplitMix64(seed: 15)
        let segments = Pricer(model: model).radioSegments(of: timeline)
        func summed(_ link: LinkKind, _ start: Nanoseconds, _ end: Nanoseconds) -> Nanoseconds {
            segments.filter { ($0.link == .wifi) == (link == .wifi) && $0.state != .idle }
                .reduce(0) { $0 + max(0, min($1.end, end) - max($1.start, start)) }
        }
        #expect(segments.count > 100)
        var windows: [RadioBusyTime.Window] = []
        for _ in 0..<300 {
            let start = Nanoseconds(random.next() % UInt64(time))
            let end = start + Nanoseconds(random.next() % UInt64(seconds(120)))
            for link in [LinkKind.wifi, .cellular] { windows.append(RadioBusyTime.Window(radio: link, start: start, end: end)) }
        }
        #expect(RadioBusyTime.measure(windows, in: timeline, model: model) == windows.map { summed($0.radio, $0.start, $0.end) })
    }
}
