import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// The shapes of strace output: pid prefixes, timestamp styles, split calls, damage.
@Suite struct StraceFormatTests {
    // MARK: Pids

    @Test func bothPidPrefixesOfDashF() throws {
        let input = try importStrace([
            #"4242  1700001000.000000 nanosleep({tv_sec=0, tv_nsec=100000000}, NULL) = 0 <0.100000>"#,
            #"[pid  4243] 1700001000.200000 nanosleep({tv_sec=0, tv_nsec=100000000}, NULL) = 0 <0.100000>"#,
            #"[pid 4244<worker>] 1700001000.400000 nanosleep({tv_sec=0, tv_nsec=100000000}, NULL) = 0 <0.100000>"#,
            #"1700001000.600000 nanosleep({tv_sec=0, tv_nsec=100000000}, NULL) = 0 <0.100000>"#,
        ])
        #expect(input.events.map(\.thread) == ["4242", "4243", "4244", ""])
    }

    @Test func unfinishedAndResumedCallsPairUpByPid() throws {
        let input = try importStrace([
            #"100  1700000010.000000 poll([{fd=3, events=POLLIN}], 1, 500 <unfinished ...>"#,
            #"101  1700000010.100000 write(4</data/x.bin>, "abc", 3 <unfinished ...>"#,
            #"100  1700000010.500400 <... poll resumed>) = 0 (Timeout) <0.500400>"#,
            #"101  1700000010.100900 <... write resumed>) = 3 <0.000900>"#,
            #"102  1700000010.600000 nanosleep({tv_sec=0, tv_nsec=250000000},  <unfinished ...>"#,
            #"103  1700000010.700000 read(5</data/y.bin>,  <unfinished ...>"#,
            #"102  1700000010.850000 <... nanosleep resumed>NULL) = 0 <0.250000>"#,
            #"103  1700000010.900000 <... read resumed>"\0\0", 2) = 2"#,
        ])
        #expect(
            input.events.map { "\($0.kind.traceName) \($0.thread) \($0.time) \($0.duration) \($0.label)" } == [
                "disk 101 \(ms(100) + us(900)) 0 /data/x.bin",
                "poll 100 \(us(500_400)) \(ms(500)) poll(3)",
                "poll 102 \(ms(850)) \(ms(250)) sleep",
                // Without -T, the resumed line's time is when the call returned.
                "disk 103 \(ms(900)) 0 /data/y.bin",
            ])
        #expect(input.diagnostic("unmatched-resumed") == nil)
    }

    @Test func theProcessTracedAloneBeforePrefixesBeginKeepsItsCalls() throws {
        // Without -o, strace prefixes lines with [pid N] only once a second process appears;
        // the first process's call in progress then resumes under its pid.
        let input = try importStrace([
            #"1700000005.000000 openat(AT_FDCWD, "/data/a.txt", O_WRONLY) = 3 <0.000010>"#,
            #"1700000005.001000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>"#,
            #"[pid   501] 1700000005.001500 write(3, "child", 5) = 5 <0.000010>"#,
            #"[pid   500] 1700000005.002000 <... clone resumed>, child_tidptr=0x7f) = 501 <0.001000>"#,
            #"[pid   500] 1700000005.003000 write(3, "parent", 6) = 6 <0.000010>"#,
        ])
        #expect(input.events(.disk).map { "\($0.thread) \($0.amount) \($0.label)" } == ["500 6 /data/a.txt"])
        #expect(input.diagnostic("unmatched-resumed") == nil)
        // The child's write came before the parent's clone returned: its table was not known yet.
        #expect(input.diagnostic("unknown-descriptor")?.count == 1)
    }

    @Test func resumedCallsWithoutTheirStartAndCallsNeverFinished() throws {
        let input = try importStrace([
            #"7  1700000001.000000 <... read resumed>"abc", 3) = 3 <0.000100>"#,
            #"7  1700000001.100000 nanosleep({tv_sec=1, tv_nsec=0},  <unfinished ...>"#,
            #"8  1700000001.100100 futex(0x7f, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>"#,
            #"8  1700000001.200000 +++ exited with 0 +++"#,
        ])
        #expect(input.timeline.isEmpty)
        let unmatched = try #require(input.diagnostic("unmatched-resumed"))
        #expect(unmatched.severity == .warning && unmatched.count == 1 && unmatched.location == "line 1, column 27")
        // The thread that exited in its call is not waiting any more; the sleep still is.
        #expect(input.diagnostic("unfinished-call")?.count == 1)
    }

    @Test func aResumptionOfAnotherCallThanTheOneWaitingIsUnmatched() throws {
        let input = try importStrace([
            #"7  1700000001.000000 nanosleep({tv_sec=1, tv_nsec=0},  <unfinished ...>"#,
            #"7  1700000001.500000 <... read resumed>"abc", 3) = 3 <0.000100>"#,
        ])
        #expect(input.timeline.isEmpty)
        #expect(input.diagnostic("unmatched-resumed")?.count == 1)
        #expect(input.diagnostic("unfinished-call") == nil)
    }

    @Test func whatOtherOptionsAddToLinesIsTolerated() throws {
        let input = try importStrace([
            // -i: the instruction pointer; -k: the stack under the call; -n: the call's number.
            #"9  1700000000.000000 [00007f3a9c0e1f0b] nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
            #" > /usr/lib/x86_64-linux-gnu/libc.so.6(clock_nanosleep+0x5d) [0xdbcfd]"#,
            // strace's own messages, when its standard error was kept with the trace.
            "strace: Process 10 attached",
            #"10  1700000000.100000 [  35] nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
        ])
        #expect(input.events.map(\.thread) == ["9", "10"])
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test func theSummaryThatDashCapitalCAddsAtTheEndIsSkipped() throws {
        let input = try importStrace([
            #"9  1700000000.000000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
            #"9  1700000000.010100 +++ exited with 0 +++"#,
            "% time     seconds  usecs/call     calls    errors syscall",
            "------ ----------- ----------- --------- --------- ----------------",
            "100.00    0.000010          10         1           nanosleep",
            "------ ----------- ----------- --------- --------- ----------------",
            "100.00    0.000010          10         1           total",
        ])
        #expect(input.events.count == 1)
        #expect(input.info.diagnostics.isEmpty)
    }

    // MARK: Timestamps

    @Test func epochTimestampsGiveTheWallClock() throws {
        let input = try importStrace([
            #"8071  1795311592.347824 nanosleep({tv_sec=0, tv_nsec=1000000}, NULL) = 0 <0.001000>"#,
            #"8071  1795311593.000001 nanosleep({tv_sec=0, tv_nsec=1000000}, NULL) = 0"#,
        ])
        #expect(input.info.wallClockStart == 1_795_311_592_347_824_000)
        #expect(input.timeline.wallClockStart == input.info.wallClockStart)
        // 1795311593.000001 − 1795311592.347824 = 0.652177 s, exactly.
        #expect(input.events.map(\.time) == [ms(1), us(652_177)])
        #expect(input.info.format == "strace")
    }

    /// Found by mutating `curl_get.strace` (issue 13): twelve digits of seconds overflowed the
    /// nanoseconds and crashed the importer. Seconds past 9,223,372,036 (year 2262) cannot be
    /// a time strace wrote: the line is skipped as one without a timestamp.
    @Test func aTimestampTooLargeForNanosecondsIsNotATimestamp() throws {
        let input = try importStrace([
            #"8071  1795311592.347824 nanosleep({tv_sec=0, tv_nsec=1000000}, NULL) = 0 <0.001000>"#,
            #"8071  999999999999.999999 nanosleep({tv_sec=0, tv_nsec=1000000}, NULL) = 0 <0.001000>"#,
            #"8071  9223372036.854775808 nanosleep({tv_sec=0, tv_nsec=1000000}, NULL) = 0 <0.001000>"#,
            #"8071  1795311593.000001 nanosleep({tv_sec=0, tv_nsec=1000000}, NULL) = 0"#,
        ])
        #expect(input.events.map(\.time) == [ms(1), us(652_177)])
        let skipped = try #require(input.info.diagnostics.entries.first { $0.code == "malformed-line" })
        #expect(skipped.count == 2 && skipped.location == "line 2, column 7")
    }

    @Test func timeOfDayTimestampsStayRelativeAndCrossMidnight() throws {
        let input = try importStrace([
            #"23:59:59.900000 nanosleep({tv_sec=0, tv_nsec=50000000}, NULL) = 0 <0.050000>"#,
            #"00:00:00.100000 nanosleep({tv_sec=0, tv_nsec=50000000}, NULL) = 0 <0.050000>"#,
        ])
        #expect(input.info.wallClockStart == nil)
        #expect(input.events.map(\.time) == [ms(50), ms(250)])
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test func wholeSecondAndRelativeTimestampsAreNoted() throws {
        let coarse = try importStrace([#"12:00:01 nanosleep({tv_sec=0, tv_nsec=50000000}, NULL) = 0"#])
        #expect(coarse.diagnostic("whole-second-timestamps")?.severity == .info)
        // -r: each line's time since the previous line.
        let relative = try importStrace([
            #"9       0.000000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
            #"9       0.010100 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
            #"9       0.010100 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
        ])
        #expect(relative.events.map(\.time) == [ms(10), us(10_100 + 10_000), us(20_200 + 10_000)])
        #expect(relative.info.wallClockStart == nil)
        #expect(relative.diagnostic("relative-timestamps")?.severity == .info)
    }

    @Test func outputWithoutTimestampsIsRefused() throws {
        #expect {
            try importStrace([#"9  openat(AT_FDCWD, "/etc/hosts", O_RDONLY) = 3"#])
        } throws: { error in
            guard case let .badData(_, location, reason) = error as? ImportError else { return false }
            return location == "line 1, column 4" && reason.contains("no timestamp") && reason.contains("-ttt")
        }
    }

    // MARK: Damage

    @Test func aCutOffLastLineIsDroppedWithAWarning() throws {
        let cut = #"9  1700000001.020000 write(3</data/x>, "abc", 3) = 3 <0.0000"#
        let input = try importStrace(text: #"9  1700000001.000000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"# + "\n" + cut)
        #expect(input.events.map(\.kind) == [.poll])
        let truncated = try #require(input.diagnostic("truncated"))
        #expect(truncated.severity == .warning)
        #expect(truncated.location == "line 2, column \(cut.utf8.count + 1)")
        #expect(truncated.message.contains("line 2"))
    }

    @Test func malformedLinesAreSkippedAndCountedOnce() throws {
        let interrupted = #"9  1700000001.100000 write(3</data/x>, "interleaved"#
        let input = try importStrace([
            #"9  1700000001.000000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
            interrupted,
            #"garbage that is no strace line"#,
            #"9  1700000001.200000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"#,
        ])
        #expect(input.events.count == 2)
        let malformed = try #require(input.diagnostic("malformed-line"))
        #expect(malformed.severity == .warning)
        #expect(malformed.count == 2)
        // The arguments never close: the error is at the end of the line.
        #expect(malformed.location == "line 2, column \(interrupted.utf8.count + 1)")
        #expect(malformed.message.contains("line 2"))
    }

    @Test(
        "what is not strace output is refused, naming the place",
        arguments: [
            ("hello world\n", "line 1, column 6", "not strace output"),
            ("% time     seconds  usecs/call     calls    errors syscall\n", "line 1, column 1", "strace -c"),
            ("", nil, "empty file"),
            ("\n  \n", nil, "empty file"),
            ("9  1.000000 +++ exited with 0 +++\n", nil, "no system call lines"),
        ] as [(String, String?, String)])
    func refused(_ text: String, _ location: String?, _ reason: String) throws {
        #expect {
            try importStrace(text: text)
        } throws: { error in
            guard case let .badData(path, errorLocation, errorReason) = error as? ImportError else { return false }
            return path.hasSuffix("trace.strace") && errorLocation == location && errorReason.contains(reason)
        }
    }

    @Test func aFileMostlyNotStraceIsRefused() throws {
        #expect {
            try importStrace([
                #"9  1700000001.000000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0"#,
                "Lorem ipsum dolor sit amet,",
                "consectetur adipiscing elit,",
            ])
        } throws: { error in
            guard case let .badData(_, location, reason) = error as? ImportError else { return false }
            return location == "line 2, column 1" && reason.contains("2 of 3 lines")
        }
    }

    // MARK: Reading

    @Test func chunkBoundariesAnywhereGiveTheSameTimeline() throws {
        let lines = [
            #"100  1700000010.000000 poll([{fd=3, events=POLLIN}], 1, 500 <unfinished ...>"#,
            #"101  1700000010.100000 write(4</data/x.bin>, "abc", 3) = 3 <0.000900>"#,
            #"100  1700000010.500400 <... poll resumed>) = 0 (Timeout) <0.500400>"#,
            #"101  1700000010.600000 sendto(5<TCP:[10.0.0.2:5000->1.2.3.4:443]>, "\26\3\1", 517, MSG_NOSIGNAL, NULL, 0) = 517 <0.000050>"#,
        ]
        let whole = try importStrace(lines).events
        #expect(whole.count == 3)
        for chunkSize in [1, 2, 7, 64] {
            #expect(try importStrace(lines, chunkSize: chunkSize).events == whole, "chunk size \(chunkSize)")
        }
    }

    @Test func windowsLineEndingsAndAByteOrderMarkAreTolerated() throws {
        let text = "\u{FEFF}9  1.000000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>\r\n"
            + "9  1.100000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>\r\n"
        let input = try importStrace(text: text)
        #expect(input.events.map(\.time) == [ms(10), ms(110)])
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test func progressCountsEveryByte() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("p.strace")
        let text = #"9  1700000001.000000 nanosleep({tv_sec=0, tv_nsec=10000000}, NULL) = 0 <0.010000>"# + "\n"
        try Data(text.utf8).write(to: url)
        var reported: [Int64] = []
        _ = try StraceImporter.read(path: url.path, progress: { reported.append($0) })
        #expect(reported.last == Int64(text.utf8.count))
        #expect(try Importers.read(path: url.path, inputIndex: 3).timeline.input.elementsEqual([3]))
    }
}
