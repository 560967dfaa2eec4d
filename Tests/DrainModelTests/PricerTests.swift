import DrainTrace
import Testing
@testable import DrainModel

/// Non-radio pricing, each value worked out by hand from the loaded model's parameters.
struct PricerTests {
    let model: DeviceModel

    init() throws {
        model = try builtinModel("iphone-lte")
    }

    func categoryJoules(_ priced: PricedTimeline, _ category: EnergyCategory) -> Double {
        priced.costs.totals[Int(category.rawValue)]
    }

    /// The radio pass and the pass over everything else run on two threads and their cost
    /// summaries are added: the result must not depend on the thread count.
    @Test func pricingIsTheSameOnOneThreadOrTwo() {
        var builder = TimelineBuilder()
        builder.location(0.5, .start, accuracyMeters: 10)
        builder.sensor(0.7, kind: "gyroscope", .start)
        for second in 0..<40 {
            let t = Double(second) * 1.5
            builder.cpu(t, duration: 0.2, name: "tick", thread: "main")
            builder.net(t, .rx, bytes: 1_500 * Int64(second % 5 + 1), host: "api.example.com", link: second % 3 == 0 ? .cellular : .wifi)
            if second % 7 == 0 { builder.disk(t + 0.1, .write, bytes: 4_096, path: "/tmp/log") }
        }
        builder.sensor(30, kind: "gyroscope", .stop)
        builder.location(50, .stop)
        let timeline = builder.build(end: 80)
        let one = Pricer(model: model).price(timeline, threads: 1)
        let two = Pricer(model: model).price(timeline, threads: 2)
        #expect(one.costs.totals == two.costs.totals)
        #expect(one.costs.bins == two.costs.bins)
        #expect(one.costs.grid == two.costs.grid)
        for category in EnergyCategory.allCases {
            #expect(one.costs.charges(for: category) == two.costs.charges(for: category))
        }
        #expect(one.eventEnergy == two.eventEnergy)
        #expect(one.radio == two.radio)
        #expect(two.radio.promotions > 0)
        #expect(categoryJoules(two, .cpu) > 0 && categoryJoules(two, .radio) > 0 && categoryJoules(two, .disk) > 0)
        // Every row's joules are summed once, in the totals and in the bins (Float entries,
        // summed in Double).
        let rowTotal = two.eventEnergy.reduce(0, +)
        #expect(abs(two.costs.totals.reduce(0, +) - rowTotal) <= 1e-6 * rowTotal)
        #expect(abs(two.costs.bins.reduce(0, +) - rowTotal) <= 1e-6 * rowTotal)
    }

    /// A long work pass is priced in pieces of rows: every row's joules are the same as in one
    /// piece, and so are the sums (within the `Float` rounding of the aggregation core); for a
    /// given cut, the result is the same on one thread or two. A sensor and a location request
    /// open across the cuts are charged once, from start to stop.
    @Test(arguments: [1, 999, 1_000, 1_777])
    func workPricedInPiecesEqualsOnePass(pieceRows: Int) {
        var builder = TimelineBuilder()
        builder.sensor(0.2, kind: "accelerometer", .start)
        builder.location(0.3, .start, accuracyMeters: 5)
        for index in 0..<1_000 {
            let t = Double(index) * 0.05
            builder.cpu(t, duration: 0.01 + Double(index % 4) * 0.001, name: index % 3 == 0 ? "decode" : nil, thread: "main")
            if index % 2 == 0 { builder.timer(t + 0.001, name: "poll", interval: 1) }
            if index % 5 == 0 { builder.disk(t + 0.002, .write, bytes: Int64(512 * (index % 7 + 1)), path: "/tmp/cache") }
            if index % 9 == 0 { builder.net(t + 0.003, .tx, bytes: 900, host: "api.example.com", link: .cellular) }
        }
        builder.sensor(40, kind: "accelerometer", .stop)
        let timeline = builder.build(end: 60)
        let pricer = Pricer(model: model)
        let whole = pricer.price(timeline, grid: nil, threads: 1, workPieceRows: .max)
        let ranges = Pricer.workRanges(rows: timeline.count, pieceRows: pieceRows)
        #expect(ranges.count == max(1, timeline.count / pieceRows))
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == timeline.count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && !$0.isEmpty })
        let one = pricer.price(timeline, grid: nil, threads: 1, workPieceRows: pieceRows)
        let two = pricer.price(timeline, grid: nil, threads: 2, workPieceRows: pieceRows)
        #expect(one.eventEnergy == whole.eventEnergy && two.eventEnergy == whole.eventEnergy)
        #expect(one.costs.totals == two.costs.totals && one.costs.bins == two.costs.bins)
        #expect(one.costs.grid == whole.costs.grid && one.radio == whole.radio)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-12) }
        #expect(zip(one.costs.totals, whole.costs.totals).allSatisfy { near($0, $1) })
        #expect(zip(one.costs.bins, whole.costs.bins).allSatisfy { near($0, $1) })
        for category in EnergyCategory.allCases {
            let pieces = one.costs.charges(for: category)
            let single = whole.costs.charges(for: category)
            #expect(pieces.map(\.key) == single.map(\.key) && pieces.map(\.entries) == single.map(\.entries))
            #expect(zip(pieces, single).allSatisfy { near($0.energyJ, $1.energyJ) })
            #expect(pieces == two.costs.charges(for: category))
        }
        // The accelerometer ran 39.8 s, location at best accuracy 59.7 s (to the run's end).
        #expect(near(categoryJoules(one, .sensors), 39.8 * model.sensors.accelerometerW.value))
        #expect(near(categoryJoules(one, .location), 59.7 * model.location.bestW.value))
        #expect(categoryJoules(one, .cpu) > 0 && categoryJoules(one, .polling) > 0 && categoryJoules(one, .disk) > 0)
    }

    @Test func cpuSliceCostsDurationTimesActivePower() throws {
        var builder = TimelineBuilder()
        builder.cpu(1, duration: 0.5, name: "parse", thread: "main")
        builder.cpu(2, duration: 0.25, thread: "worker")
        let priced = Pricer(model: model).price(builder.build())
        #expect(close(priced.eventEnergy[0], 0.5 * model.cpu.activeW.value))
        #expect(close(priced.eventEnergy[1], 0.25 * model.cpu.activeW.value))
        // A named slice is keyed by its name, an unnamed one by its thread.
        let byKey = priced.costs.charges(for: .cpu)
        let parse = try #require(priced.timeline.strings.lookup("parse"))
        let worker = try #require(priced.timeline.strings.lookup("worker"))
        #expect(byKey.map(\.key) == [parse, worker].sorted())
        #expect(close(priced.costs.energy(of: parse, in: .cpu), 0.5 * model.cpu.activeW.value, tolerance: 1e-6))
        #expect(close(priced.costs.energy(of: worker, in: .cpu), 0.25 * model.cpu.activeW.value, tolerance: 1e-6))
        #expect(byKey.map(\.entries) == [1, 1])
    }

    @Test func wakeupsTimersAndPollsCostOneWakeupEach() throws {
        var builder = TimelineBuilder()
        builder.wakeup(1, reason: "timer", source: "com.example.refresh")
        builder.timer(2, name: "refresh", interval: 1)
        builder.poll(3, source: "socket", interval: 0.1)
        let priced = Pricer(model: model).price(builder.build())
        let wakeup = model.cpu.wakeupJ.value
        #expect(priced.eventEnergy.allSatisfy { close($0, wakeup) })
        #expect(close(categoryJoules(priced, .cpu), wakeup, tolerance: 1e-9))
        #expect(close(categoryJoules(priced, .polling), 2 * wakeup, tolerance: 1e-9))
        let source = try #require(priced.timeline.strings.lookup("com.example.refresh"))
        #expect(close(priced.costs.energy(of: source, in: .cpu), wakeup, tolerance: 1e-9))
    }

    @Test func diskOperationsCostPerOperationPerMegabyteAndPerFsync() {
        var builder = TimelineBuilder()
        builder.disk(1, .write, bytes: 2_000_000, path: "/tmp/state.json")
        builder.disk(2, .fsync, path: "/tmp/state.json")
        builder.disk(3, .read, bytes: 500_000, path: "/tmp/state.json")
        builder.disk(4, .truncate, path: "/tmp/state.json")
        let priced = Pricer(model: model).price(builder.build())
        let disk = model.disk
        #expect(close(priced.eventEnergy[0], disk.perOpJ.value + 2 * disk.perMbJ.value))
        #expect(close(priced.eventEnergy[1], disk.perFsyncJ.value))
        #expect(close(priced.eventEnergy[2], disk.perOpJ.value + 0.5 * disk.perMbJ.value))
        #expect(close(priced.eventEnergy[3], disk.perOpJ.value))
        let total = priced.eventEnergy.reduce(0, +)
        #expect(close(categoryJoules(priced, .disk), total, tolerance: 1e-6))
        #expect(priced.costs.totals.reduce(0, +) == categoryJoules(priced, .disk))
    }

    @Test func framesAndGPUSlicesArePricedAsDisplay() {
        var builder = TimelineBuilder()
        builder.frame(1, changed: true)
        builder.frame(1.016, changed: false)
        builder.gpu(2, duration: 0.25, name: "blur")
        let priced = Pricer(model: model).price(builder.build())
        #expect(close(priced.eventEnergy[0], model.display.perFrameJ.value))
        #expect(close(priced.eventEnergy[1], model.display.perFrameJ.value))
        #expect(close(priced.eventEnergy[2], 0.25 * model.display.gpuW.value))
        #expect(close(categoryJoules(priced, .display), 2 * model.display.perFrameJ.value + 0.25 * model.display.gpuW.value, tolerance: 1e-7))
    }

    @Test func sensorsCostPowerFromStartToStopOrToTheEndOfTheRun() {
        var builder = TimelineBuilder()
        builder.sensor(1, kind: "accelerometer", .start, rateHz: 50)
        builder.sensor(2, kind: "gyroscope", .start, rateHz: 100)
        builder.sensor(4, kind: "accelerometer", .stop)
        let priced = Pricer(model: model).price(builder.build(end: 10))
        // Accelerometer 1 → 4 s; gyroscope 2 s → the end of the run at 10 s, never stopped.
        #expect(close(priced.eventEnergy[0], 3 * model.sensors.accelerometerW.value))
        #expect(close(priced.eventEnergy[1], 8 * model.sensors.gyroscopeW.value))
        #expect(priced.eventEnergy[2] == 0)
        #expect(close(categoryJoules(priced, .sensors), 3 * model.sensors.accelerometerW.value + 8 * model.sensors.gyroscopeW.value, tolerance: 1e-6))
    }

    @Test func locationCostsTheTierOfItsRequestedAccuracy() {
        var builder = TimelineBuilder()
        builder.location(1, .start, accuracyMeters: 5)
        builder.location(3, .start, accuracyMeters: 100)
        builder.location(6, .stop)
        let priced = Pricer(model: model).price(builder.build(end: 10))
        // Best accuracy from 1 to 3 s (replaced by the new request), 100 m from 3 to 6 s.
        #expect(close(priced.eventEnergy[0], 2 * model.location.bestW.value))
        #expect(close(priced.eventEnergy[1], 3 * model.location.hundredMetersW.value))
        #expect(priced.eventEnergy[2] == 0)
        #expect(Pricer(model: model).locationPower(accuracyMeters: 10) == model.location.tenMetersW.value)
        #expect(Pricer(model: model).locationPower(accuracyMeters: 3000) == model.location.kilometerW.value)
    }

    @Test func eventsWithoutCostArePricedAtZero() {
        var builder = TimelineBuilder()
        builder.lifecycle(0, .active)
        builder.memory(1, footprint: 100_000_000)
        builder.mark(2, name: "checkpoint")
        let priced = Pricer(model: model).price(builder.build())
        #expect(priced.eventEnergy == [0, 0, 0])
        #expect(priced.costs.totals.allSatisfy { $0 == 0 })
        #expect(priced.costs.bins.allSatisfy { $0 == 0 })
    }
}
