import DrainModel
import DrainPipeline
import DrainReport
import DrainTestSupport
import Foundation
import Testing

@Suite struct AnalysisTests {
    let header = #"{"drain_trace":1,"process":"Tester","device":"iphone-lte","start":"2026-11-20T09:00:00Z"}"#

    @Test func pricesCPUWakeupsAndDiskByHand() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try writeTrace(
            [
                header,
                #"{"t":0,"type":"lifecycle","state":"active"}"#,
                #"{"t":1,"type":"cpu","thread":"main","name":"work","dur":2.0}"#,
                #"{"t":4,"type":"wakeup","reason":"timer","source":"T"}"#,
                #"{"t":5,"type":"wakeup","reason":"timer","source":"T"}"#,
                #"{"t":6,"type":"disk","op":"write","bytes":2000000,"path":"/tmp/a"}"#,
                #"{"t":7,"type":"disk","op":"fsync","path":"/tmp/a"}"#,
                #"{"t":10,"type":"mark","name":"end"}"#,
            ], named: "run.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "iphone-lte"))
        let model = try ModelCatalog.load(nameOrPath: "iphone-lte")
        // CPU: a 2 s slice at the active power of one core, plus two wakeups.
        let cpu = 2.0 * model.cpu.activeW.value + 2 * model.cpu.wakeupJ.value
        // Disk: one write of 2 MB (one op + 2 × per-MB), one fsync.
        let disk = model.disk.perOpJ.value + 2 * model.disk.perMbJ.value + model.disk.perFsyncJ.value
        #expect(abs(report.energy.byCategory["cpu"]! - cpu) < 1e-5 * cpu)
        #expect(abs(report.energy.byCategory["disk"]! - disk) < 1e-5 * disk)
        #expect(report.energy.byCategory["radio"] == 0)
        #expect(report.durationS == 10)
        let total = cpu + disk
        #expect(abs(report.energy.totalJ - total) < 1e-5 * total)
        #expect(abs(report.energy.averageMw - total / 10 * 1000) < 1e-3)
        let batteryPercent = total / 10 / model.battery.capacityWh.value * 100
        #expect(abs(report.energy.batteryPctPerHour - batteryPercent) < 1e-6)
        #expect(abs(report.energy.mwh - total / 3.6) < 1e-6)
        // The time bins hold the same energy as the totals.
        let binned = report.timeline.energyJ.reduce(0) { $0 + $1.reduce(0, +) }
        #expect(abs(binned - total) < 1e-5 * total)
        #expect(report.inputs.map(\.events) == [7])
        #expect(report.model.name == "iphone-lte")
    }

    @Test func oneIsolatedLTEExchangeCostsPromotionPlusTail() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try writeTrace(
            [header, #"{"t":1,"type":"net","dir":"tx","bytes":0,"host":"api.example","iface":"cellular"}"#],
            named: "net.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "iphone-lte"))
        let lte = try #require(try ModelCatalog.load(nameOrPath: "iphone-lte").radio.lte)
        func drxPower(cycle: Double) -> Double {
            (lte.drxOnS.value * lte.drxOnW.value + (cycle - lte.drxOnS.value) * lte.drxBaseW.value) / cycle
        }
        let expected = lte.promotionS.value * lte.promotionW.value
            + lte.inactivityS.value * lte.connectedW.value
            + lte.shortDrxS.value * drxPower(cycle: lte.shortDrxCycleS.value)
            + lte.longDrxS.value * drxPower(cycle: lte.longDrxCycleS.value)
        // ARO's LTE profile: 0.3146 + 0.12 + 0.0224 + 10.91 ≈ 11.37 J.
        #expect(abs(expected - 11.367) < 0.01)
        #expect(abs(report.energy.byCategory["radio"]! - expected) < 1e-4 * expected)
        #expect(report.radio.promotions == 1)
        #expect(report.endpoints.map(\.endpoint) == ["api.example"])
        #expect(abs(report.endpoints[0].energyJ - expected) < 1e-4 * expected)
        // The run lasts until the tail ends: 1 s + promotion + inactivity + both DRX tails.
        let tailEnd = 1 + lte.promotionS.value + lte.inactivityS.value + lte.shortDrxS.value + lte.longDrxS.value
        #expect(abs(report.durationS - tailEnd) < 1e-6)
    }

    /// Each host's bytes each way, bursts (1 s burst gap) and connections, with strings of other
    /// kinds interned before and between the hosts; traffic without a host is "(unknown)".
    @Test func endpointsCountEachHostsBytesBurstsAndConnections() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try writeTrace(
            [
                header,
                #"{"t":0,"type":"disk","op":"write","bytes":10,"path":"/tmp/first"}"#,
                #"{"t":1,"type":"net","dir":"tx","bytes":100,"host":"a.example","conn":"c1","iface":"cellular"}"#,
                #"{"t":1.1,"type":"net","dir":"rx","bytes":1000,"host":"b.example","conn":"c3","iface":"cellular"}"#,
                #"{"t":1.2,"type":"net","dir":"rx","bytes":300,"host":"a.example","conn":"c1","iface":"cellular"}"#,
                #"{"t":2,"type":"disk","op":"write","bytes":10,"path":"/tmp/second"}"#,
                #"{"t":5,"type":"net","dir":"tx","bytes":50,"host":"a.example","conn":"c2","iface":"cellular"}"#,
                #"{"t":5.5,"type":"net","dir":"tx","bytes":70,"iface":"cellular"}"#,
                #"{"t":9,"type":"net","dir":"tx","bytes":20,"host":"a.example","conn":"c1","iface":"cellular"}"#,
            ], named: "hosts.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "iphone-lte"))
        let byName = Dictionary(uniqueKeysWithValues: report.endpoints.map { ($0.endpoint, $0) })
        #expect(report.endpoints.count == 3)
        let a = try #require(byName["a.example"])
        #expect([a.bytesUp, a.bytesDown] == [170, 300])
        #expect(a.bursts == 3)
        #expect(a.connections == 2)
        let b = try #require(byName["b.example"])
        #expect([b.bytesUp, b.bytesDown] == [0, 1000])
        #expect(b.bursts == 1)
        #expect(b.connections == 1)
        let unknown = try #require(byName["(unknown)"])
        #expect([unknown.bytesUp, unknown.bytesDown] == [70, 0])
        #expect(unknown.bursts == 0)
        #expect(unknown.connections == 0)
        #expect(report.endpoints.map(\.energyJ) == report.endpoints.map(\.energyJ).sorted(by: >))
    }

    /// A connection label a trace gives more than one host counts once for each of them, however
    /// often the hosts take turns on it.
    @Test func aConnectionSharedByHostsCountsOnceForEach() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let turns = [("a", "c1"), ("b", "c1"), ("a", "c1"), ("a", "c2"), ("b", "c1"), ("c", "c1"), ("a", "c1"), ("b", "c2")]
        let events = turns.enumerated().map { index, turn in
            #"{"t":\#(index),"type":"net","dir":"tx","bytes":100,"host":"\#(turn.0).example","conn":"\#(turn.1)","iface":"wifi"}"#
        }
        let trace = try writeTrace([header] + events, named: "shared.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "iphone-lte"))
        let connections = Dictionary(uniqueKeysWithValues: report.endpoints.map { ($0.endpoint, $0.connections) })
        #expect(connections == ["a.example": 2, "b.example": 2, "c.example": 1])
    }

    /// A radio burst names its busiest host and counts its hosts; hosts of one burst are not
    /// counted in the next. Bursts are 60 s apart, past every tail.
    @Test func eachBurstNamesItsBusiestHost() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func send(_ time: Double, _ bytes: Int, _ host: String) -> String {
            #"{"t":\#(time),"type":"net","dir":"tx","bytes":\#(bytes),"host":"\#(host)","iface":"cellular"}"#
        }
        let events = [
            // c and b send as much, more than a: b wins the tie by its name's id (seen first).
            send(0, 300, "a.example"), send(0.1, 200, "b.example"), send(0.2, 700, "c.example"), send(0.3, 500, "b.example"),
            send(60, 100, "d.example"),
            send(120, 50, "a.example"), send(120.1, 60, "a.example"),
        ]
        let trace = try writeTrace([header] + events, named: "bursts.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "iphone-lte"))
        let bursts = report.radio.bursts
        #expect(bursts.map(\.endpoint) == ["b.example", "d.example", "a.example"])
        #expect(bursts.map(\.endpoints) == [3, 1, 1])
        #expect(bursts.map(\.bytesUp) == [1_700, 100, 110])
    }

    /// A run with more hosts than the report lists keeps the costliest and says how many there
    /// were: each host sends once, 20 s after the one before (past every tail, so each pays
    /// the same promotion and tail), 10 bytes more than it, so the first host costs least.
    @Test func endpointsBeyondTheLimitAreCutToTheCostliest() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hosts = 5_001
        let events = (0..<hosts).map { index in
            #"{"t":\#(index * 20),"type":"net","dir":"tx","bytes":\#(1_000 + index * 10),"host":"h\#(index).example","conn":"c\#(index)","iface":"cellular"}"#
        }
        let trace = try writeTrace([header] + events, named: "many-hosts.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "iphone-lte"))
        #expect(report.limits.endpoints == ListLimit(limit: 5_000, total: hosts))
        #expect(report.endpoints.count == 5_000)
        #expect(!report.endpoints.contains { $0.endpoint == "h0.example" })
        #expect(report.endpoints.first?.endpoint == "h5000.example")
        #expect(report.endpoints.map(\.energyJ) == report.endpoints.map(\.energyJ).sorted(by: >))
    }

    /// Hosts that cost the same at the cut are listed by name: 5,001 hosts send alike, 20 s
    /// apart, so all pay the same; one more sends more. Only names after the 4,999th are cut.
    /// The alike hosts come last first, so the order they are seen in is not the names' order.
    @Test func endpointsTiedAtTheCutAreListedByName() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let alike = (0...5_000).map { index in
            let name = "h" + String(repeating: "0", count: 4 - String(index).count) + String(index) + ".example"
            return #"{"t":\#(20 + index * 20),"type":"net","dir":"tx","bytes":1000,"host":"\#(name)","iface":"cellular"}"#
        }
        let costly = #"{"t":0,"type":"net","dir":"tx","bytes":90000,"host":"z-costly.example","iface":"cellular"}"#
        let trace = try writeTrace([header, costly] + alike.reversed(), named: "tied-hosts.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "iphone-lte"))
        #expect(report.limits.endpoints == ListLimit(limit: 5_000, total: 5_002))
        #expect(report.endpoints.first?.endpoint == "z-costly.example")
        let tied = report.endpoints.dropFirst()
        #expect(Set(tied.map(\.energyJ)).count == 1)
        #expect(tied.first?.endpoint == "h0000.example")
        #expect(tied.last?.endpoint == "h4998.example")
        #expect(tied.map(\.endpoint) == tied.map(\.endpoint).sorted())
    }

    @Test func deviceHintChoosesTheModelUnlessOverridden() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try writeTrace(
            [#"{"drain_trace":1,"device":"iphone-wifi"}"#, #"{"t":1,"type":"mark","name":"x"}"#],
            named: "hint.jsonl", in: directory)
        #expect(try Analysis.run(AnalysisOptions(inputs: [trace.path])).model.name == "iphone-wifi")
        #expect(try Analysis.run(AnalysisOptions(inputs: [trace.path], model: "android-pixel-lte")).model.name == "android-pixel-lte")
    }

    @Test func twoTracesShareOneClock() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try writeTrace(
            [#"{"drain_trace":1,"start":"2026-11-20T09:00:00Z"}"#, #"{"t":1,"type":"cpu","dur":0.5}"#],
            named: "a.jsonl", in: directory)
        let second = try writeTrace(
            [#"{"drain_trace":1,"start":"2026-11-20T09:00:03.5Z"}"#, #"{"t":1,"type":"cpu","dur":0.5}"#],
            named: "b.jsonl", in: directory)
        let report = try Analysis.run(AnalysisOptions(inputs: [first.path, second.path], binSeconds: 1))
        #expect(report.inputs.map(\.offsetS) == [0, 3.5])
        #expect(report.durationS == 5)
        let cpu = report.timeline.categories.firstIndex(of: "cpu")!
        let busyBins = report.timeline.energyJ.indices.filter { report.timeline.energyJ[$0][cpu] > 0 }
        #expect(busyBins == [1, 4])
    }

    @Test func everyCategoryAppearsAndNothingIsNaN() throws {
        let report = try Analysis.run(AnalysisOptions(inputs: [Repository.root.appendingPathComponent("samples/app-session.jsonl").path]))
        #expect(Set(report.energy.byCategory.keys) == ["cpu", "radio", "disk", "polling", "display", "location", "sensors"])
        for value in report.energy.byCategory.values { #expect(value.isFinite && value > 0) }
        #expect(report.energy.totalJ.isFinite)
        let score = try #require(report.scores.energy)
        #expect(score >= 0 && score <= 100)
        #expect(report.memory.peakBytes != nil)
        #expect(report.memory.warnings == 1)
        let ids = Set(report.findings.map(\.rule))
        #expect(ids.isSuperset(of: ["CPU-POLLING", "DISK-FREQUENT", "LIFE-BACKGROUND-TIME", "NET-BACKGROUND"]))
        #expect(!ids.contains("MEM-WARNING-RESPONSE"))
    }
}
