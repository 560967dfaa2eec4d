import DrainModel
import DrainTrace
import Synchronization
import Testing

@testable import DrainRules

/// The radio attribution NET-PERIODIC and NET-LATE-CLOSE both read is worked out once per
/// run, however many threads ask at once, and is the attribution of the run.
@Suite struct SharedRuleWorkTests {
    @Test func theAttributionIsMadeOnceForEveryThreadThatAsks() {
        var run = TimelineBuilder()
        for index in 0..<200 { run.net(Double(index) * 60, .tx, bytes: 500, host: "api.example.com", link: .cellular) }
        let model = TestModel.phone
        let priced = Pricer(model: model).price(run.build(end: 12_000))
        let shared = SharedRuleWork()
        let made = Atomic<Int>(0)
        let seen = ParallelWork.map(8, threads: 4) { _ in
            let context = RuleContext(priced: priced, model: model, parameters: [:], shared: shared)
            return shared.radioAttribution {
                made.add(1, ordering: .relaxed)
                return RadioAttribution(context.timeline, model: context.model)
            }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        let alone = RadioAttribution(priced.timeline, model: model)
        #expect(seen.allSatisfy { $0.addedJoules == alone.addedJoules && $0.wokeRadio == alone.wokeRadio })
        // A packet a minute finds the radio idle each time (every model's tail is shorter), so
        // each wakes it and adds a promotion and a whole tail.
        #expect(alone.wokeRadio.filter { $0 }.count == 200)
        #expect(alone.addedJoules.filter { $0 > 0 }.count == 200)
    }
}
