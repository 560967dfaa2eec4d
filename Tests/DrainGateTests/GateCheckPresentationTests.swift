@testable import DrainGate
import Testing

@Suite struct GateCheckPresentationTests {
    /// The outputs rely on the verdict's order (by status, then most energy at stake): the
    /// fixture is written in it, and `Gate` sorts so.
    @Test func theFixtureIsInTheGatesOrder() {
        let checks = GateVerdictFixture.realistic.checks
        #expect(checks.map(\.id) == checks.sorted(by: Gate.precedes).map(\.id))
        #expect(GateVerdictFixture.realistic.presentedChecks == checks)
    }

    @Test func presentsChecksByStatusWhateverTheirOrder() {
        var verdict = GateVerdictFixture.realistic
        verdict.checks.reverse()
        #expect(verdict.presentedChecks.map(\.status) == GateVerdictFixture.realistic.checks.map(\.status))
    }

    @Test func cutsLongStringsByScalars() {
        #expect("abc".cut(toScalars: 3) == "abc")
        #expect("abcd".cut(toScalars: 3) == "ab…")
        let marks = "e" + String(repeating: "\u{301}", count: 50)
        #expect(marks.cut(toScalars: 10).unicodeScalars.count == 10)
    }
}
