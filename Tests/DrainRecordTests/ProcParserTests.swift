#if os(Linux)
import DrainTrace
import Testing

@testable import DrainRecord

/// The /proc parsers on literal text copied from a Linux 6 kernel's files.
@Suite struct ProcParserTests {
    private func parse<Result>(_ text: String, _ parser: (UnsafeRawBufferPointer) -> Result) -> Result {
        Array(text.utf8).withUnsafeBytes { parser($0) }
    }

    @Test func statReadsStateParentAndReapedChildrensTicksAfterTheLastParenthesis() {
        // utime 2, stime 2, cutime 28, cstime 12: the children's are 28 + 12 = 40 ticks.
        let plain = "21971 (bash) S 21961 21971 21971 0 -1 4194560 3030 34059 0 1 2 2 28 12 20 0 1 0 978399 5124096 976\n"
        #expect(parse(plain, ProcStat.parse) == ProcStat(state: UInt8(ascii: "S"), parentPID: 21961, childrenTicks: 40))
        // A command name may hold spaces and parentheses: it ends at the last ')'.
        let hostile = "77 (a) S 1 (b) Z 4242 77 77 0 -1 4194304 0 0 0 0 0 0 3 4 20 0 1 0 5 0 0\n"
        #expect(parse(hostile, ProcStat.parse) == ProcStat(state: UInt8(ascii: "Z"), parentPID: 4242, childrenTicks: 7))
        // Cut before cutime: state and parent only.
        #expect(parse("9 (x) R 1 9 9 0 -1 0\n", ProcStat.parse) == ProcStat(state: UInt8(ascii: "R"), parentPID: 1))
    }

    @Test func statRejectsTextThatIsNotAStatLine() {
        #expect(parse("", ProcStat.parse) == nil)
        #expect(parse("12 (x)", ProcStat.parse) == nil)
        #expect(parse("12 (x) S parent", ProcStat.parse) == nil)
    }

    @Test func statusReadsNameStateParentResidentSizeAndVoluntarySwitches() throws {
        let text = """
            Name:\tsha256sum
            Umask:\t0022
            State:\tR (running)
            Tgid:\t900
            Ngid:\t0
            Pid:\t900
            PPid:\t899
            VmPeak:\t    5856 kB
            VmRSS:\t    4084 kB
            RssAnon:\t     512 kB
            Threads:\t1
            voluntary_ctxt_switches:\t77
            nonvoluntary_ctxt_switches:\t15

            """
        let status = try #require(parse(text, ProcStatus.parse))
        #expect(status.name == Array("sha256sum".utf8))
        #expect(status.state == UInt8(ascii: "R"))
        #expect(status.parentPID == 899)
        #expect(status.residentBytes == Int64(4084 * 1024))
        #expect(status.voluntarySwitches == 77)
    }

    @Test func statusUndoesTheKernelsEscapesInTheName() throws {
        // The kernel prints a newline in a thread name as \n and a backslash as \\.
        let text = "Name:\tev\\nil\\\\ \"q\"\nState:\tS (sleeping)\nPPid:\t1\nvoluntary_ctxt_switches:\t3\n"
        let status = try #require(parse(text, ProcStatus.parse))
        #expect(status.name == Array("ev\nil\\ \"q\"".utf8))
        #expect(status.residentBytes == nil)
    }

    @Test func statusWithoutSwitchesIsRejected() {
        #expect(parse("Name:\tx\nState:\tS (sleeping)\n", ProcStatus.parse) == nil)
    }

    @Test func ioReadsWriteBytesCancelledBytesAndWriteCalls() throws {
        let text = """
            rchar: 4269469
            wchar: 272808
            syscr: 14398
            syscw: 464
            read_bytes: 4096
            write_bytes: 483328
            cancelled_write_bytes: 278528

            """
        let io = try #require(parse(text, ProcIO.parse))
        #expect(io == ProcIO(writeBytes: 483_328, cancelledWriteBytes: 278_528, writeCalls: 464))
        #expect(parse("rchar: 1\n", ProcIO.parse) == nil)
    }

    @Test func schedstatRuntimeIsTheFirstNumber() {
        #expect(parse("501632220 62606817 32\n", ProcSchedstat.parseRuntime) == 501_632_220)
        #expect(parse("x 1 2\n", ProcSchedstat.parseRuntime) == nil)
    }

    @Test func loadavgEndsWithTheLastPIDHandedOut() {
        #expect(parse("0.77 2.06 2.04 3/245 32640\n", ProcLoadavg.lastPID) == 32_640)
        #expect(parse("0.00 0.00 0.00 1/1 1", ProcLoadavg.lastPID) == 1)
        #expect(parse("0.77 2.06 2.04 3/245\n", ProcLoadavg.lastPID) == nil)
        #expect(parse("", ProcLoadavg.lastPID) == nil)
    }

    @Test func netDevListsEveryInterfaceWithReceivedAndTransmittedBytes() {
        let text = """
            Inter-|   Receive                                                |  Transmit
             face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                lo:  986923    4115    0    0    0     0          0         0   986923    4115    0    0    0     0       0          0
              eth0: 187955567    5672    0    0    0     0          0         0   274363    3549    0    0    0     0       0          0
            wlp2s0:12 1 0 0 0 0 0 0 34 1 0 0 0 0 0 0

            """
        var seen: [(String, Int64, Int64)] = []
        parse(text) { bytes in
            NetDevParser.forEachInterface(bytes) { name, received, transmitted in
                seen.append((String(decoding: name, as: UTF8.self), received, transmitted))
            }
        }
        #expect(seen.map(\.0) == ["lo", "eth0", "wlp2s0"])
        #expect(seen.map(\.1) == [986_923, 187_955_567, 12])
        #expect(seen.map(\.2) == [986_923, 274_363, 34])
    }

    @Test func linuxInterfaceNamesMapToLinks() {
        func link(_ name: String) -> String {
            Array(name.utf8).withUnsafeBytes { LinkKind(linuxInterfaceName: $0).traceName }
        }
        #expect(link("lo") == "loopback")
        #expect(link("eth0") == "ethernet")
        #expect(link("enp3s0") == "ethernet")
        #expect(link("wlan0") == "wifi")
        #expect(link("wlp2s0") == "wifi")
        #expect(link("wwan0") == "cellular")
        #expect(link("docker0") == "unspecified")
        #expect(link("lo2") == "unspecified")
    }
}
#endif
