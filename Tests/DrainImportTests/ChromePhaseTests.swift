import DrainTrace
import Testing

@testable import DrainImport

/// How each phase of the Chrome Trace Event Format becomes Drain events.
@Suite struct ChromePhaseTests {
    @Test func completeEventsAreCPUSlicesOnTheirThreadTimedFromTheFirstEvent() throws {
        let input = try importChrome(
            #"""
            [{"ph":"X","name":"task","pid":7,"tid":9,"ts":1000.5,"dur":250.25},
             {"ph":"X","name":"draw","cat":"viz,gpu","pid":7,"tid":9,"ts":2000,"dur":10},
             {"ph":"X","name":"later","pid":7,"tid":9,"ts":3000}]
            """#)
        // Time zero is the first ts (1000.5 µs); 250.25 µs is 250 250 ns.
        #expect(input.timeline.rows(.cpu, .gpu) == [
            Row(kind: .cpu, time: 0, duration: 250_250, thread: "9", label: "task"),
            Row(kind: .gpu, time: 999_500, duration: 10_000, thread: "9", label: "draw"),
            Row(kind: .cpu, time: 1_999_500, duration: 0, thread: "9", label: "later"),
        ])
        #expect(input.timeline.wallClockStart == nil)
        #expect(input.info.format == "chrome-trace")
        #expect(input.info.events == 3)
    }

    @Test func beginEndPairsNestPerThreadAndTheOutermostSliceIsTheCPUTime() throws {
        // Two threads interleaved in the file; on each, an E closes the latest open B.
        let input = try importChrome(
            #"""
            [{"ph":"B","name":"outer","pid":1,"tid":2,"ts":0},
             {"ph":"B","name":"other","pid":1,"tid":3,"ts":1},
             {"ph":"B","name":"inner","pid":1,"tid":2,"ts":2},
             {"ph":"E","pid":1,"tid":3,"ts":4},
             {"ph":"E","pid":1,"tid":2,"ts":5},
             {"ph":"E","pid":1,"tid":2,"ts":9}]
            """#)
        #expect(input.timeline.rows(.cpu) == [
            Row(kind: .cpu, time: 0, duration: 9_000, thread: "2", label: "outer"),
            Row(kind: .cpu, time: 1_000, duration: 3_000, thread: "3", label: "other"),
        ])
        // inner (2…5 µs) is inside outer: a mark, so its time is not counted twice.
        #expect(input.timeline.rows(.mark) == [Row(kind: .mark, time: 2_000, duration: 3_000, thread: "2", label: "inner")])
        #expect(input.info.diagnostics.entry("nested-slices")?.count == 1)
    }

    @Test func beginEndPairInTimeOrderWhenTheFileIsNot() throws {
        let input = try importChrome(
            #"""
            [{"ph":"B","name":"b","pid":0,"tid":0,"ts":1},{"ph":"E","pid":0,"tid":0,"ts":9},
             {"ph":"B","name":"a","pid":0,"tid":0,"ts":0},{"ph":"E","pid":0,"tid":0,"ts":10}]
            """#)
        #expect(input.timeline.rows(.cpu) == [Row(kind: .cpu, time: 0, duration: 10_000, thread: "main", label: "a")])
        #expect(input.timeline.rows(.mark) == [Row(kind: .mark, time: 1_000, duration: 8_000, thread: "main", label: "b")])
        #expect(input.info.diagnostics.entry("out-of-order") == nil)
    }

    @Test func unclosedBeginsCloseAtTheLastTimeAndUnmatchedEndsAreSkipped() throws {
        let input = try importChrome(
            #"""
            [{"ph":"E","pid":1,"tid":1,"ts":0},
             {"ph":"B","name":"never ends","pid":1,"tid":1,"ts":10},
             {"ph":"X","name":"elsewhere","pid":1,"tid":2,"ts":20,"dur":30}]
            """#)
        // The trace's last time is the end of "elsewhere": 50 µs, 50 µs after time zero.
        #expect(input.timeline.rows(.cpu).first == Row(kind: .cpu, time: 10_000, duration: 40_000, thread: "main", label: "never ends"))
        let unclosed = try #require(input.info.diagnostics.entry("unclosed-slices"))
        #expect(unclosed.severity == .warning)
        #expect(unclosed.message.contains("\"never ends\""))
        #expect(input.info.diagnostics.entry("unmatched-end")?.count == 1)
    }

    @Test func overlappingSlicesCountOnlyTheirPartAfterThePreviousOne() throws {
        let input = try importChrome(
            #"[{"ph":"X","name":"alpha","pid":0,"tid":0,"ts":0,"dur":10},{"ph":"X","name":"beta","pid":0,"tid":0,"ts":5,"dur":10}]"#)
        #expect(input.timeline.rows(.cpu) == [
            Row(kind: .cpu, time: 0, duration: 10_000, thread: "main", label: "alpha"),
            Row(kind: .cpu, time: 10_000, duration: 5_000, thread: "main", label: "beta"),
        ])
        #expect(input.info.diagnostics.entry("overlapping-slices")?.count == 1)
    }

    @Test func instantsAndMarksAreMarksOnTheirThreadUnlessProcessOrGlobalScoped() throws {
        let input = try importChrome(
            #"""
            [{"ph":"i","name":"thread","pid":1,"tid":5,"ts":0},
             {"ph":"I","name":"legacy","pid":1,"tid":5,"ts":1,"s":"t"},
             {"ph":"i","name":"process","pid":1,"tid":5,"ts":2,"s":"p"},
             {"ph":"i","name":"global","pid":1,"tid":5,"ts":3,"s":"g"},
             {"ph":"R","name":"navigationStart","pid":1,"tid":5,"ts":4}]
            """#)
        #expect(input.timeline.rows(.mark) == [
            Row(kind: .mark, time: 0, thread: "5", label: "thread"),
            Row(kind: .mark, time: 1_000, thread: "5", label: "legacy"),
            Row(kind: .mark, time: 2_000, thread: "", label: "process"),
            Row(kind: .mark, time: 3_000, thread: "", label: "global"),
            Row(kind: .mark, time: 4_000, thread: "5", label: "navigationStart"),
        ])
    }

    @Test func memoryCountersBecomeMemoryEventsAndOthersAreCountedAndSkipped() throws {
        let input = try importChrome(
            #"""
            [{"ph":"C","name":"JSHeap","pid":1,"ts":0,"args":{"used":1000,"free":24.4}},
             {"ph":"C","name":"stats","pid":1,"ts":1,"args":{"rss_bytes":4096,"fps":60}},
             {"ph":"C","name":"ctr","pid":1,"ts":2,"args":{"cats":0,"dogs":7}},
             {"ph":"C","name":"ctr","pid":1,"ts":3,"args":{"cats":1,"dogs":6}}]
            """#)
        // A memory-named counter: its series stack up (1000 + 24.4, rounded); otherwise only
        // the memory-named series count.
        let memory = (0..<input.timeline.count).filter { input.timeline.kind[$0] == .memory }
        #expect(memory.map { input.timeline.amount[$0] } == [1024, 4096])
        #expect(memory.map { input.timeline.time[$0] } == [0, 1_000])
        let skipped = try #require(input.info.diagnostics.entry("counter-ignored"))
        #expect(skipped.count == 2)
        #expect(skipped.message.contains("\"ctr\""))
    }

    @Test func metadataNamesThreadsAndTheProcessAndFindsTheMainThread() throws {
        let input = try importChrome(
            #"""
            [{"ph":"X","name":"a","pid":10,"tid":11,"ts":0,"dur":1},
             {"ph":"X","name":"b","pid":10,"tid":12,"ts":1,"dur":1},
             {"ph":"X","name":"c","pid":10,"tid":13,"ts":2,"dur":1},
             {"ph":"X","name":"d","pid":10,"tid":14,"ts":3,"dur":1},
             {"ph":"M","name":"process_name","pid":10,"args":{"name":"Renderer"}},
             {"ph":"M","name":"thread_name","pid":10,"tid":11,"args":{"name":"CrRendererMain"}},
             {"ph":"M","name":"thread_name","pid":10,"tid":12,"args":{"name":"Compositor"}},
             {"ph":"M","name":"thread_name","pid":10,"tid":13,"args":{"name":"Worker"}},
             {"ph":"M","name":"thread_name","pid":10,"tid":14,"args":{"name":"Worker"}},
             {"ph":"M","name":"process_sort_index","pid":10,"args":{"sort_index":1}}]
            """#)
        #expect(input.timeline.rows(.cpu).map(\.thread) == ["main", "Compositor", "Worker (13)", "Worker (14)"])
        #expect(input.info.process == "Renderer")
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test func theBusiestRendererIsTheAppAndOtherProcessesArePrefixed() throws {
        let input = try importChrome(
            #"""
            [{"ph":"M","name":"process_name","pid":1,"args":{"name":"Browser"}},
             {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"CrBrowserMain"}},
             {"ph":"M","name":"thread_name","pid":2,"tid":20,"args":{"name":"CrRendererMain"}},
             {"ph":"X","name":"ui","pid":1,"tid":1,"ts":0,"dur":1},
             {"ph":"X","name":"ui","pid":1,"tid":1,"ts":1,"dur":1},
             {"ph":"X","name":"ui","pid":1,"tid":1,"ts":2,"dur":1},
             {"ph":"X","name":"script","pid":2,"tid":20,"ts":3,"dur":1},
             {"ph":"X","name":"io","pid":2,"tid":21,"ts":4,"dur":1},
             {"ph":"X","name":"gpu","pid":3,"tid":30,"ts":5,"dur":1}]
            """#)
        // The browser is busier, but a renderer is where a page runs.
        #expect(input.timeline.rows(.cpu).map(\.thread) == [
            "Browser/CrBrowserMain", "Browser/CrBrowserMain", "Browser/CrBrowserMain", "main", "21", "pid 3/30",
        ])
        #expect(input.info.process == nil)
    }

    @Test func withoutNamesTheThreadWhoseIdIsTheProcessIdIsMain() throws {
        let input = try importChrome(
            #"[{"ph":"X","name":"a","pid":"app","tid":"app","ts":0,"dur":1},{"ph":"X","name":"b","pid":"app","tid":"bg","ts":0,"dur":1}]"#)
        #expect(input.timeline.rows(.cpu).map(\.thread) == ["main", "bg"])
    }

    @Test func asyncFlowObjectAndSampleEventsAreCountedInOneDiagnostic() throws {
        let input = try importChrome(
            #"""
            [{"ph":"b","name":"fetch","id":1,"pid":1,"tid":1,"ts":0},{"ph":"n","name":"fetch","id":1,"pid":1,"tid":1,"ts":1},
             {"ph":"e","name":"fetch","id":1,"pid":1,"tid":1,"ts":2},{"ph":"S","name":"old","id":2,"pid":1,"tid":1,"ts":0},
             {"ph":"s","id":3,"pid":1,"tid":1,"ts":0},{"ph":"f","id":3,"pid":1,"tid":1,"ts":1,"bp":"e"},
             {"ph":"N","id":"0x1","name":"Obj","pid":1,"tid":1,"ts":0},{"ph":"O","id":"0x1","name":"Obj","pid":1,"tid":1,"ts":1,"args":{"snapshot":{}}},
             {"ph":"D","id":"0x1","name":"Obj","pid":1,"tid":1,"ts":2},{"ph":"P","pid":1,"tid":1,"ts":3},
             {"ph":"c","pid":1,"tid":1,"ts":4}]
            """#)
        #expect(input.timeline.isEmpty)
        let ignored = try #require(input.info.diagnostics.entry("ignored-events"))
        #expect(ignored.severity == .info)
        #expect(ignored.count == 11)
        #expect(ignored.message.contains("4 async"))
        #expect(ignored.message.contains("2 flow"))
        #expect(ignored.message.contains("3 object"))
        #expect(ignored.message.contains("1 sample"))
        #expect(ignored.message.contains("1 of other phases"))
        #expect(ignored.location == "line 1, column 2")
    }

    @Test func drainExportCategoriesComeBackAsTheyWere() throws {
        // Overlapping drain.cpu slices stay CPU time each; priced tracks are skipped.
        let input = try importChrome(
            #"""
            [{"ph":"X","name":"scroll","cat":"drain.cpu","pid":1,"tid":1,"ts":0,"dur":900},
             {"ph":"X","name":"badge","cat":"drain.cpu","pid":1,"tid":1,"ts":0.5,"dur":2},
             {"ph":"X","name":"pass","cat":"drain.gpu","pid":1,"tid":2,"ts":1,"dur":4},
             {"ph":"X","name":"phase","cat":"drain.mark","pid":1,"tid":1,"ts":2,"dur":3},
             {"ph":"i","name":"tap","cat":"drain.mark","pid":1,"tid":1,"ts":3,"s":"t"},
             {"ph":"C","name":"power (mW)","cat":"drain.priced","pid":1,"ts":0,"args":{"cpu":1}},
             {"ph":"X","name":"tail","cat":"drain.priced","pid":1,"tid":3,"ts":0,"dur":5}]
            """#)
        #expect(input.timeline.rows(.cpu, .gpu, .mark) == [
            Row(kind: .cpu, time: 0, duration: 900_000, thread: "main", label: "scroll"),
            Row(kind: .cpu, time: 500, duration: 2_000, thread: "main", label: "badge"),
            Row(kind: .gpu, time: 1_000, duration: 4_000, thread: "2", label: "pass"),
            Row(kind: .mark, time: 2_000, duration: 3_000, thread: "main", label: "phase"),
            Row(kind: .mark, time: 3_000, duration: 0, thread: "main", label: "tap"),
        ])
        #expect(input.info.diagnostics.entry("derived-skipped")?.count == 2)
        #expect(input.info.diagnostics.entry("nested-slices") == nil)
    }

    @Test func timesAreReadFromTheirDecimalDigits() throws {
        // 1427012847340.001 µs is beyond a Double's exact nanoseconds; a string holds one too.
        let input = try importChrome(
            #"""
            [{"ph":"X","name":"a","pid":0,"tid":0,"ts":1427012847340,"dur":0.001},
             {"ph":"X","name":"b","pid":0,"tid":0,"ts":1427012847340.001,"dur":1e-3},
             {"ph":"X","name":"c","pid":0,"tid":0,"ts":"1427012847341","dur":"0.5"},
             {"ph":"X","name":"d","pid":0,"tid":0,"ts":1.427012847342e12,"dur":0.0004}]
            """#)
        #expect(input.timeline.rows(.cpu, .mark).map { [$0.time, $0.duration] } == [[0, 1], [1, 1], [1_000, 500], [2_000, 0]])
    }

    @Test func hostileNamesAreKeptExactly() throws {
        let input = try importChrome(
            #"""
            [{"ph":"X","name":"a\"b\\c\n<script>\u0000\u2028\ud83d\ude00","pid":1,"tid":1,"ts":0,"dur":1},
             {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"x\u001b[31m"}},
             {"ph":"M","name":"process_name","pid":1,"args":{"name":"</title>\r"}}]
            """#)
        #expect(input.timeline.rows(.cpu).map(\.label) == ["a\"b\\c\n<script>\u{0}\u{2028}😀"])
        // The lone thread is main whatever its name; the process name is kept as given.
        #expect(input.timeline.rows(.cpu).map(\.thread) == ["main"])
        #expect(input.info.process == "</title>\r")
    }
}
