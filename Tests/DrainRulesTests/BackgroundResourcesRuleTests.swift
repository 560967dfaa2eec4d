import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct BackgroundResourcesRuleTests {
    let id = "LIFE-BACKGROUND-RESOURCES"

    func camera(releasedAt release: Double?, acquiredAt acquire: Double? = 1, kind: String = "camera") -> RuleEvaluation {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        if let acquire { run.resource(acquire, kind: kind, .start, id: "back") }
        run.lifecycle(10, .background)
        if let release { run.resource(release, kind: kind, .stop, id: "back") }
        return evaluate(run.build(end: 60))
    }

    @Test func releasedWithinFiveSecondsPasses() {
        #expect(camera(releasedAt: 15).status(of: id) == .pass)
    }

    @Test func heldPastTheGraceWarnsWithTheHoldTime() throws {
        let finding = try #require(camera(releasedAt: 15.5).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.texts("resource kind") == ["camera"])
        #expect(finding.texts("resource id") == ["back"])
        #expect(finding.number("acquired") == 1)
        #expect(finding.number("released") == 15.5)
        #expect(finding.number("entered background") == 10)
        #expect(finding.number("hold time") == 5.5)
        #expect(finding.number("time held in background") == 5.5)
        #expect(finding.timeRanges == [TimeRange(startS: 10, endS: 15.5)])
    }

    @Test func aResourceNeverReleasedIsHeldToTheEnd() throws {
        let finding = try #require(camera(releasedAt: nil).findings(of: id).first)
        #expect(finding.texts("released") == ["still held when the run ended"])
        #expect(finding.number("hold time") == 50)
    }

    @Test func aReleaseWithoutAnAcquireWasHeldFromTheStart() throws {
        let finding = try #require(camera(releasedAt: 20, acquiredAt: nil).findings(of: id).first)
        #expect(finding.texts("acquired") == ["before the run (released without an acquire)"])
        #expect(finding.number("hold time") == 10)
    }

    @Test func acquiringInTheBackgroundAfterTheGraceCounts() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(10, .background)
        run.resource(20, kind: "database", .start, id: "store")
        run.resource(22, kind: "database", .stop, id: "store")
        let finding = try #require(evaluate(run.build(end: 30)).findings(of: id).first)
        #expect(finding.number("hold time") == 2)
        #expect(finding.timeRanges == [TimeRange(startS: 20, endS: 22)])
    }

    @Test func sharedKindsAreMatchedWithoutCaseAndOthersAreIgnored() {
        #expect(camera(releasedAt: 30, kind: "Socket_Listener").status(of: id) == .warning)
        #expect(camera(releasedAt: 30, kind: "sensors").status(of: id) == .warning)
        #expect(camera(releasedAt: 30, kind: "audio_session").status(of: id) == .notApplicable)
    }

    @Test func aHoldAcrossTwoBackgroundStretchesHasARangeForEach() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.resource(1, kind: "location", .start, id: "gps")
        run.lifecycle(10, .background)
        run.lifecycle(13, .active)  // back within the grace: not late here
        run.lifecycle(20, .background)
        run.lifecycle(30, .active)
        run.lifecycle(40, .background)
        run.resource(50, kind: "location", .stop, id: "gps")
        let finding = try #require(evaluate(run.build(end: 60)).findings(of: id).first)
        #expect(finding.number("entered background") == 20)
        #expect(finding.number("time held in background") == 23)  // 3 + 10 + 10 s
        #expect(finding.timeRanges == [TimeRange(startS: 20, endS: 30), TimeRange(startS: 40, endS: 50)])
    }

    /// A second release without an acquire cannot have been held across the first release:
    /// it is held from there, not from the start of the run.
    @Test func aSecondReleaseWithoutAnAcquireIsHeldFromTheFirst() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(10, .background)
        run.resource(20, kind: "database", .stop, id: "store")
        run.resource(40, kind: "database", .stop, id: "store")
        let finding = try #require(evaluate(run.build(end: 60)).findings(of: id).first)
        #expect(finding.number("occurrences") == 2)
        #expect(finding.timeRanges == [TimeRange(startS: 10, endS: 20), TimeRange(startS: 20, endS: 40)])
        // Alone, the second release says where its hold began.
        var later = TimelineBuilder()
        later.lifecycle(0, .active)
        later.lifecycle(10, .background)
        later.resource(20, kind: "database", .start, id: "store")
        later.resource(22, kind: "database", .stop, id: "store")
        later.resource(40, kind: "database", .stop, id: "store")
        let findings = evaluate(later.build(end: 60)).findings(of: id)
        #expect(findings.count == 1)
        #expect(findings.first?.timeRanges == [TimeRange(startS: 20, endS: 22), TimeRange(startS: 22, endS: 40)])
    }
}
