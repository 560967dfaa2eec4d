import DrainCompare
import Testing

@Suite struct AlignmentTests {
    @Test func readsTheAlignArgument() {
        #expect(Alignment(argument: "start") == Alignment(mode: .start))
        #expect(Alignment(argument: "mark:feed loaded") == Alignment(mode: .mark, name: "feed loaded"))
        #expect(Alignment(argument: "state:active") == Alignment(mode: .state, name: "active"))
        #expect(Alignment(argument: "state:awake") == nil)
        #expect(Alignment(argument: "mark:") == nil)
        #expect(Alignment(argument: "end") == nil)
        #expect(Alignment(mode: .mark, name: "x").argument == "mark:x")
    }
}
