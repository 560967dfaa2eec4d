import DrainModel
import DrainTrace
import Synchronization
import Testing

@testable import DrainRules

/// The background stretches are worked out once per run, however many threads ask at once;
/// the flow of each event is made once for its readers; the joules of each flow the network
/// rules read are those of the events labelled with its connection in its input.
@Suite struct SharedRuleWorkTests {
    /// The background stretches nine rules read are found once, by the first thread that asks,
    /// and kept when the rules that read other shared work are done: they are as small as the
    /// run's lifecycle events.
    @Test func theLifecycleTrackIsMadeOnceAndKept() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(100, .background)
        run.lifecycle(160, .suspended)
        run.lifecycle(400, .active)
        run.lifecycle(900, .background)
        for index in 0..<50 { run.net(Double(index) * 20, .tx, bytes: 300, host: "api.example.com", link: .wifi) }
        let model = TestModel.phone
        let priced = Pricer(model: model).price(run.build(end: 1_000))
        let second = Clock.nanosecondsPerSecond
        let shared = SharedRuleWork(readers: [.all])
        let made = Atomic<Int>(0)
        let seen = ParallelWork.map(8, threads: 4) { _ in
            let context = RuleContext(priced: priced, model: model, parameters: [:], shared: shared, reads: [])
            return shared.lifecycleTrack {
                made.add(1, ordering: .relaxed)
                return LifecycleTrack(context.timeline)
            }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        // Background from 100 s (the suspension at 160 s continues it) to 400 s, and from 900 s
        // to the end at 1,000 s.
        #expect(seen.allSatisfy { $0.stretches.map { [$0.start, $0.end] } == [[100 * second, 400 * second], [900 * second, 1_000 * second]] })
        #expect(seen.allSatisfy { $0.changes == 5 })
        shared.finishedReading(.all)
        #expect(shared.held.isEmpty)
        let context = RuleContext(priced: priced, model: model, parameters: [:], shared: shared, reads: [])
        #expect(context.lifecycleTrack.backgroundTime(from: 0, to: 1_000 * second) == 400 * second)
        #expect(made.load(ordering: .relaxed) == 1)
    }

    /// NET-LATE-CLOSE's flow of each event is the one the joules of each flow are added up
    /// through: made once, and dropped when both are done with it; the joules are dropped after
    /// their last reader.
    @Test func theFlowOfEachEventIsMadeOnceAndDroppedAfterItsReaders() {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", link: .wifi)
        for t in [0.0, 1, 2] { capture.packet(api, at: t, .tx, bytes: 600, payload: 500) }
        let timeline = capture.build(end: 5)
        let shared = SharedRuleWork(readers: [.flowOfRow, .flowEnergy, .flowEnergy])
        var made = 0
        let flowOfRow = shared.flowOfRow { made += 1; return FlowOfRow(timeline) }
        let joules = Self.powersOfTwo(timeline.count)
        let energy = shared.flowEnergy { FlowEnergy(shared.flowOfRow { made += 1; return FlowOfRow(timeline) }, eventEnergy: joules) }
        #expect(made == 1)
        let rows = (0..<timeline.count).filter { flowOfRow($0) == 0 }
        #expect(rows.map { timeline.time[$0] } == [0, 1, 2].map { Clock.nanoseconds($0) })
        #expect(energy.total == [rows.reduce(0) { $0 + joules[$1] }])
        // Adding up the joules was one of the two reads of the flow of each event.
        #expect(shared.held == [.flowOfRow, .flowEnergy])
        shared.finishedReading(.flowOfRow)
        #expect(shared.held == .flowEnergy)
        shared.finishedReading(.flowEnergy)
        #expect(shared.held == .flowEnergy)
        shared.finishedReading(.flowEnergy)
        #expect(shared.held.isEmpty)
    }

    /// Joules 1, 2, 4… per row: a sum of them names the rows it added up.
    static func powersOfTwo(_ count: Int) -> [Double] { (0..<count).map { Double(sign: .plus, exponent: $0, significand: 1) } }

    @Test func eachFlowGetsTheJoulesOfTheEventsOfItsConnectionInItsOwnInput() {
        // Two captures whose builders label their first connection alike: merged, that label is
        // one string shared by a flow of each input, and a third flow has a label of its own.
        func capture(_ times: [Double], second: [Double]) -> Timeline {
            var capture = CaptureBuilder()
            let first = capture.tcp(to: "api.example.com", link: .wifi)
            for t in times { capture.packet(first, at: t, .tx, bytes: 600, payload: 500) }
            if !second.isEmpty {
                let other = capture.tcp(to: "cdn.example.com", link: .wifi)
                for t in second { capture.packet(other, at: t, .rx, bytes: 1_500, payload: 1_400) }
            }
            return capture.build(end: 20)
        }
        var diagnostics = [ImportDiagnostics(), ImportDiagnostics()]
        let merged = Timeline.merge(
            [capture([0, 2, 4], second: [1, 3]), capture([0.5, 2.5, 9], second: [])], diagnostics: &diagnostics)
        let flows = merged.flows
        #expect(flows.count == 3)
        #expect(flows.connection[0] == flows.connection[2] && flows.input[0] != flows.input[2])
        let joules = Self.powersOfTwo(merged.count)
        let energy = FlowEnergy(FlowOfRow(merged), eventEnergy: joules)
        func rows(where time: [Double]) -> Double {
            time.reduce(0) { sum, t in sum + joules[merged.time.firstIndex(of: Clock.nanoseconds(t))!] }
        }
        // The first input's api rows are at 0, 2 and 4 s; its cdn rows at 1 and 3 s; the
        // second input's api rows at 0.5, 2.5 and 9 s.
        #expect(energy.total == [rows(where: [0, 2, 4]), rows(where: [1, 3]), rows(where: [0.5, 2.5, 9])])
        for flow in 0..<flows.count {
            let expected = (0..<merged.count).filter {
                merged.kind[$0] == .net && merged.label2[$0] == flows.connection[flow] && merged.input[$0] == flows.input[flow]
            }
            #expect(energy.total[flow] == expected.reduce(0) { $0 + joules[$1] })
        }
    }

    /// Events labelled with strings outside the span of the flows' connection labels, below
    /// and above it, and with a label no flow has inside it, have no flow.
    @Test func eventsOfNoConnectionHaveNoFlow() {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", link: .wifi)
        let cdn = capture.tcp(to: "cdn.example.com", link: .wifi)
        capture.packet(api, at: 1, .tx, bytes: 600, payload: 500)
        capture.packet(cdn, at: 2, .rx, bytes: 1_500, payload: 1_400)
        var timeline = capture.build(end: 10)
        let flows = timeline.flows
        let connections = [flows.connection[0], flows.connection[1]]
        // String 1 is the first endpoint, interned before any connection label.
        #expect(StringID(1) < connections.min()!)
        let inside = (connections.min()! + 1..<connections.max()!).first
        let above = timeline.strings.intern("after every connection")
        for label in [StringID(1), above] + (inside.map { [$0] } ?? []) where !connections.contains(label) {
            timeline.append(Event(time: Clock.nanoseconds(3), kind: .net, code: NetDirection.tx.rawValue, amount: 100, label2: label))
        }
        let flowOfRow = FlowOfRow(timeline)
        let found = (0..<timeline.count).map { flowOfRow($0) }
        #expect(found.prefix(2) == [0, 1])
        #expect(found.dropFirst(2).allSatisfy { $0 == nil })
        #expect(found.count >= 4)
    }

    /// NET-CHATTY's joules are those of the events whose span overlaps the flow's exchanges:
    /// one that ends as the first request goes out counts, one that ends 0.1 s before does not,
    /// and one that starts as the last response comes in counts.
    @Test func theJoulesDuringExchangesAreThoseOfEventsOverlappingThem() {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", link: .wifi)
        let quiet = capture.tcp(to: "cdn.example.com", link: .wifi)
        capture.packet(quiet, at: 0, .rx, bytes: 1_500, payload: 1_400)
        capture.packet(api, at: 1, .tx, bytes: 600, payload: 500)
        capture.packet(api, at: 5, .tx, bytes: 600, payload: 500, span: 4.9)
        capture.packet(api, at: 8, .tx, bytes: 600, payload: 500, span: 2)
        capture.exchange(api, at: 10, request: 300, response: 700, wait: 0.5)
        capture.exchange(api, at: 20, request: 300, response: 700, wait: 0.5)
        capture.packet(api, at: 30, .rx, bytes: 600, payload: 500)
        let timeline = capture.build(end: 40)
        let flows = timeline.flows
        #expect(flows.firstExchangeTime[0] == Clock.nanoseconds(10))
        #expect(flows.lastExchangeTime[0] == Clock.nanoseconds(20.5))
        let joules = Self.powersOfTwo(timeline.count)
        let energy = FlowEnergy(FlowOfRow(timeline), eventEnergy: joules)
        func at(_ t: Double) -> Double { joules[timeline.time.firstIndex(of: Clock.nanoseconds(t))!] }
        #expect(energy.total[0] == at(1) + at(5) + at(8) + at(10) + at(10.5) + at(20) + at(20.5) + at(30))
        #expect(energy.duringExchanges[0] == at(8) + at(10) + at(10.5) + at(20) + at(20.5))
        #expect(energy.total[1] == at(0))
        #expect(energy.duringExchanges[1] == 0)
    }
}
