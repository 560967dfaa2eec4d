@testable import DrainTrace
import Testing

@Suite struct StringTableTests {
    @Test func internsEachStringOnce() {
        var table = StringTable()
        let a = table.intern("api.example.com")
        let b = table.intern("/var/db/state.sqlite")
        #expect(a != b)
        #expect(table.intern("api.example.com") == a)
        #expect(table[a] == "api.example.com")
        #expect(table[b] == "/var/db/state.sqlite")
        #expect(table.intern("") == 0)
        #expect(table.lookup("missing") == nil)
        #expect(table.lookup("api.example.com") == a)
    }

    @Test func survivesGrowthWithManyStrings() {
        var table = StringTable()
        var ids: [StringID] = []
        for index in 0..<10_000 { ids.append(table.intern("host-\(index)")) }
        #expect(Set(ids).count == 10_000)
        for index in stride(from: 0, to: 10_000, by: 997) {
            #expect(table[ids[index]] == "host-\(index)")
            #expect(table.intern("host-\(index)") == ids[index])
        }
        #expect(table.count == 10_001)
    }

    /// Strings added unindexed read back by id, take no place in the index (which grows only
    /// with interned ones and finds each of them across its doublings), are not found by text,
    /// and are interned like any other when tables merge.
    @Test func unindexedStringsReadBackButAreNotFoundByText() {
        var table = StringTable()
        var interned: [StringID] = []
        var unindexed: [StringID] = []
        for index in 0..<5_000 {
            interned.append(table.intern("host-\(index)"))
            var label = "tcp 10.0.0.2:\(40_000 + index) → 203.0.113.9:443"
            unindexed.append(label.withUTF8 { table.appendUnindexed(UnsafeRawBufferPointer($0)) })
        }
        #expect(table.count == 10_001)
        #expect(Set(interned + unindexed).count == 10_000)
        for index in stride(from: 0, to: 5_000, by: 499) {
            #expect(table[unindexed[index]] == "tcp 10.0.0.2:\(40_000 + index) → 203.0.113.9:443")
            #expect(table.intern("host-\(index)") == interned[index])
            #expect(table.lookup("tcp 10.0.0.2:\(40_000 + index) → 203.0.113.9:443") == nil)
        }
        // 5,000 indexed strings need 16,384 slots (at most half full); with the labels, 32,768.
        #expect(table.slotCount == 16_384)
        let again = table.intern("tcp 10.0.0.2:40000 → 203.0.113.9:443")
        #expect(again != unindexed[0] && table[again] == table[unindexed[0]])

        var merged = StringTable()
        let first = merged.intern("tcp 10.0.0.2:40001 → 203.0.113.9:443")
        let ids = merged.intern(contentsOf: table)
        #expect(ids[Int(unindexed[1])] == first)
        #expect(ids[Int(again)] == ids[Int(unindexed[0])])
        #expect(ids[Int(interned[7])] == merged.lookup("host-7"))
    }

    /// Each string ends where the next begins: neighbours, prefixes of each other and the last
    /// string read back whole, before and after the table gives back its spare room.
    @Test func stringsEndWhereTheNextBeginsAcrossReleasingRoom() {
        var table = StringTable()
        let strings = ["a", "ab", "abc", "b", "é/\u{0}x", "abc"]
        let ids = strings.map { table.intern($0) }
        #expect(ids[5] == ids[2])
        #expect(ids.map { table[$0] } == strings)
        table.releaseUnusedCapacity()
        #expect(ids.map { table[$0] } == strings)
        #expect(strings.map { table.lookup($0) } == ids)
        let later = table.intern("abcd")
        #expect(table[later] == "abcd")
        #expect(table[ids[3]] == "b")
        #expect(table.count == 7)
    }

    /// Strings fill 64 KiB chunks and never straddle two; one longer than a chunk has its own.
    /// Every string reads back whole around the chunks' edges, and each is found again.
    @Test func stringsReadBackWholeAcrossChunksAndLongOnes() {
        var table = StringTable()
        var expected: [String] = []
        var ids: [StringID] = []
        var random = SplitMix64(seed: 7)
        for index in 0..<9_000 {
            // Mostly names of a few dozen bytes, now and then one of several chunks' length.
            let length = index % 1_500 == 17 ? 70_000 + Int(random.next() % 140_000) : 1 + Int(random.next() % 90)
            let string = "\(index):" + String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: length)
            expected.append(string)
            ids.append(table.intern(string))
        }
        #expect(Set(ids).count == expected.count)
        #expect(ids.map { table[$0] } == expected)
        #expect(expected.map { table.lookup($0) } == ids)
        table.releaseUnusedCapacity()
        #expect(ids.map { table[$0] } == expected)
        var copy = StringTable()
        let mapped = copy.intern(contentsOf: table)
        #expect(ids.map { copy[mapped[Int($0)]] } == expected)
    }

    @Test func repairsInvalidUTF8() {
        var table = StringTable()
        let bytes: [UInt8] = [0x61, 0xFF, 0x62]
        let id = bytes.withUnsafeBytes { table.intern($0) }
        #expect(table[id] == "a\u{FFFD}b")
    }
}

@Suite struct TimelineTests {
    @Test func sortsOutOfOrderEventsStablyAndSaysSo() {
        var builder = TimelineBuilder()
        builder.mark(2, name: "c")
        builder.mark(1, name: "a")
        builder.mark(1, name: "b")
        builder.mark(3, name: "d")
        var timeline = builder.timeline
        #expect(!timeline.isSorted)
        var diagnostics = ImportDiagnostics()
        timeline.finish(diagnostics: &diagnostics)
        #expect(timeline.isSorted)
        #expect(timeline.time == [1_000_000_000, 1_000_000_000, 2_000_000_000, 3_000_000_000])
        #expect((0..<4).map { timeline.strings[timeline.label[$0]] } == ["a", "b", "c", "d"])
        #expect(diagnostics.entries.map(\.code) == ["out-of-order"])
        #expect(diagnostics.entries[0].count == 1)
    }

    /// A block of `net` rows appended at once: the same rows, order flag and end as the rows
    /// appended one by one, into an empty timeline (which takes the block's arrays over) and
    /// after rows of its own (which copies them).
    @Test(arguments: [false, true])
    func aBlockOfNetRowsEqualsTheRowsAppendedOneByOne(afterOwnRows: Bool) {
        let count = 150
        // One row earlier than the one before it, some without a duration or with a negative
        // one (which does not extend the end), the last one the latest-ending.
        let times: [Nanoseconds] = (0..<count).map { row in row == 90 ? 10_000 : 1_000_000 + Nanoseconds(row) * 1_000 }
        let durations: [Nanoseconds] = (0..<count).map { row in
            if row == 17 { return -5 }
            return row % 4 == 0 ? 0 : Nanoseconds(row) * 300
        }
        let links = LinkKind.allCases
        let rows: [Event] = (0..<count).map { row in
            let bytes: Int64 = row % 9 == 0 ? 0 : Int64(row) * 40
            return Event(
                time: times[row], kind: .net, code: UInt8(row % 2), code2: links[row % links.count].rawValue, amount: bytes,
                duration: durations[row], label: StringID(row % 5), label2: StringID(row % 3 + 1))
        }
        var oneByOne = Timeline()
        var atOnce = Timeline()
        if afterOwnRows {
            for own in [Event(time: 500, kind: .cpu, thread: 3, duration: 20), Event(time: 600, kind: .timer, value: 0.5)] {
                oneByOne.append(own)
                atOnce.append(own)
            }
        }
        for row in rows { oneByOne.append(row, input: 2) }
        atOnce.appendNetRows(
            NetRowColumns(
                time: times, direction: rows.map { NetDirection(rawValue: $0.code)! },
                link: rows.map { LinkKind(rawValue: $0.code2)! }, bytes: rows.map { $0.amount }, duration: durations,
                host: rows.map { $0.label }, connection: rows.map { $0.label2 }),
            input: 2)
        #expect(atOnce.count == oneByOne.count && atOnce.count == count + (afterOwnRows ? 2 : 0))
        #expect((0..<atOnce.count).allSatisfy { atOnce[$0] == oneByOne[$0] })
        #expect(atOnce.input == oneByOne.input)
        #expect(!atOnce.isSorted && !oneByOne.isSorted)
        #expect(atOnce.end == oneByOne.end && atOnce.end == times[count - 1] + durations[count - 1])
    }

    @Test func endCoversTheLastSlice() {
        var builder = TimelineBuilder()
        builder.cpu(1, duration: 0.5)
        builder.mark(1.2, name: "x")
        #expect(builder.build().end == 1_500_000_000)
        #expect(builder.build(end: 10).end == 10_000_000_000)
    }

    @Test func timerAndPollIntervalsDoNotExtendTheRun() {
        var builder = TimelineBuilder()
        builder.timer(1, name: "sync", interval: 1800)
        builder.poll(2, source: "socket", interval: 60)
        #expect(builder.build().end == 2_000_000_000)
    }

    @Test func mergeLinesInputsUpByWallClock() {
        var first = TimelineBuilder(wallClockStart: 1_000_000_000_000)
        first.net(0.5, .tx, bytes: 100, host: "a.example")
        var second = TimelineBuilder(wallClockStart: 1_002_000_000_000)
        second.disk(0.25, .write, bytes: 10, path: "/tmp/x")
        var diagnostics = [ImportDiagnostics(), ImportDiagnostics()]
        let merged = Timeline.merge([first.build(), second.build()], diagnostics: &diagnostics)
        #expect(merged.count == 2)
        #expect(merged.wallClockStart == 1_000_000_000_000)
        #expect(merged.time == [500_000_000, 2_250_000_000])
        #expect(merged.kind == [.net, .disk])
        #expect(Array(merged.input) == [0, 1])
        #expect(merged.strings[merged.label[0]] == "a.example")
        #expect(merged.strings[merged.label[1]] == "/tmp/x")
        #expect(merged.end == 2_250_000_000)
        #expect(diagnostics.allSatisfy { $0.isEmpty })
    }

    @Test func mergeAlignsInputsWithoutWallClockAtZeroWithDiagnostic() {
        var first = TimelineBuilder(wallClockStart: 5_000_000_000)
        first.mark(1, name: "a")
        var second = TimelineBuilder()
        second.mark(0.5, name: "b")
        var diagnostics = [ImportDiagnostics(), ImportDiagnostics()]
        let merged = Timeline.merge([first.build(), second.build()], diagnostics: &diagnostics)
        #expect(merged.time == [500_000_000, 1_000_000_000])
        #expect(diagnostics[1].entries.map(\.code) == ["no-wall-clock"])
    }
}

@Suite struct CostLedgerTests {
    @Test func splitsLongWorkIntoEntriesOfAtMostOneSecond() {
        var ledger = CostLedger()
        ledger.add(time: 0, duration: 10_120_000_000, category: .radio, joules: 11, key: 3)
        #expect(ledger.count == 11)
        let total = ledger.energy.reduce(0.0) { $0 + Double($1) }
        #expect(abs(total - 11) < 1e-5)
        #expect(ledger.time.last! < 10_120_000_000)
        #expect(ledger.key.allSatisfy { $0 == 3 })
        for index in 1..<ledger.count { #expect(ledger.time[index] - ledger.time[index - 1] <= 1_000_000_000) }
    }

    @Test func aCoarserResolutionSplitsIntoFewerEntries() {
        // A 20-minute bin gives 150 s entries: a 10.12 s tail stays one entry, a 1,000 s
        // location session becomes ⌈1000 / 150⌉ = 7.
        let resolution = CostLedger.resolution(forBinWidth: 1_200_000_000_000)
        #expect(resolution == 150_000_000_000)
        #expect(CostLedger.resolution(forBinWidth: 2_000_000_000) == 1_000_000_000)
        var ledger = CostLedger(resolution: resolution)
        ledger.add(time: 0, duration: 10_120_000_000, category: .radio, joules: 11, key: 3)
        #expect(ledger.count == 1)
        ledger.add(time: 20_000_000_000, duration: 1_000_000_000_000, category: .location, joules: 7)
        #expect(ledger.count == 8)
        #expect(ledger.time.suffix(7).map { ($0 - 20_000_000_000) / 1_000_000_000 } == [0, 142, 285, 428, 571, 714, 857])
        #expect(ledger.energy.suffix(7).allSatisfy { $0 == 1 })
    }

    @Test func sortsByTime() {
        var ledger = CostLedger()
        ledger.add(time: 5, category: .cpu, joules: 1)
        ledger.add(time: 2, category: .disk, joules: 2)
        #expect(!ledger.isSorted)
        ledger.sortByTime()
        #expect(ledger.time == [2, 5])
        #expect(ledger.category == [EnergyCategory.disk.rawValue, EnergyCategory.cpu.rawValue])
    }

    /// Ledgers as pricing leaves them (mostly in order, some entries late or split ahead), and
    /// shapes that defeat the one-run shortcut: every order must be the stable sort's.
    @Test("the time order equals a stable sort, nearly sorted or not", arguments: [0, 1, 2, 3, 4])
    func timeOrderIsTheStableSort(shape: Int) {
        var state: UInt64 = 0x5EED_0000 + UInt64(shape)
        func next(_ bound: Int64) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64((state >> 33) % UInt64(bound))
        }
        let count = 5_000
        let times: [Nanoseconds] = (0..<count).map { index in
            let base = Int64(index) * 10
            switch shape {
            case 0: return base  // sorted
            case 1: return next(6) == 0 ? base - next(200) : base  // one in six late, as pricing leaves them
            case 2: return index == 3 ? 1_000_000 : base  // one entry far ahead: everything after falls behind it
            case 3: return next(50)  // random with many ties
            default: return Int64(count - index) / 3  // descending with ties
            }
        }
        let reference = times.indices.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        #expect(CostLedger.timeOrder(times).map(Int.init) == reference)
    }

    /// Pricing empties its ledger after each fold and refills it: an emptied ledger is sorted
    /// again, keeps its resolution and its columns' capacity.
    @Test func removeAllEmptiesAndKeepsCapacity() {
        var ledger = CostLedger(resolution: 2_000_000_000)
        ledger.reserveCapacity(64)
        ledger.add(time: 5, category: .cpu, joules: 1)
        ledger.add(time: 2, category: .disk, joules: 2)
        #expect(!ledger.isSorted)
        ledger.removeAll()
        #expect(ledger.count == 0 && ledger.isSorted && ledger.resolution == 2_000_000_000)
        #expect(ledger.time.capacity >= 64 && ledger.energy.capacity >= 64)
        ledger.add(time: 7, duration: 3_000_000_000, category: .location, joules: 4, key: 1)
        #expect(ledger.time == [7, 1_500_000_007] && ledger.energy == [2, 2] && ledger.key == [1, 1])
    }
}

@Suite struct FormattingTests {
    @Test func fixedIsLocaleIndependent() {
        #expect(Formatting.fixed(11.3671, digits: 2) == "11.37")
        #expect(Formatting.fixed(-0.004, digits: 2) == "0.00")
        #expect(Formatting.fixed(-2.5, digits: 1) == "-2.5")
        #expect(Formatting.fixed(3, digits: 0) == "3")
        #expect(ByteFormat.string(1_500_000) == "1.50 MB")
        #expect(ByteFormat.string(999) == "999 B")
    }
}
