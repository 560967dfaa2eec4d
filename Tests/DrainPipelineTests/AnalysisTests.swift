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
