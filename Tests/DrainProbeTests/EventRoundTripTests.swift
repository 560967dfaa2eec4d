import DrainImport
import DrainProbe
import DrainTrace
import Foundation
import Testing

/// Every event type the probe writes reads back through `DrainTraceImporter` with the exact
/// values given, in the columns docs/trace-format.md assigns, with no diagnostics.
@Suite("DrainProbe events round-trip")
struct EventRoundTripTests {
    @Test("the header names the process, the device and the wall-clock start")
    func header() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let before = Date().timeIntervalSince1970
        let probe = try fixture.probe(process: "SyncNotes", device: "iphone-wifi")
        let after = Date().timeIntervalSince1970
        probe.close()

        let input = try fixture.read()
        #expect(input.info.process == "SyncNotes")
        #expect(input.info.deviceHint == "iphone-wifi")
        #expect(input.info.diagnostics.isEmpty)
        let start = try #require(input.info.wallClockStart)
        #expect(Double(start) / 1e9 >= before.rounded(.down) && Double(start) / 1e9 <= after.rounded(.up))
        let header = try #require(try fixture.lines().first)
        #expect(header.hasPrefix(#"{"drain_trace":1,"process":"SyncNotes","pid":\#(getpid()),"device":"iphone-wifi","start":""#))
        // RFC 3339 in UTC with nanoseconds: 2026-11-22T10:00:00.123456789Z
        #expect(header.range(of: #""start":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z"\}$"#, options: .regularExpression) != nil)
    }

    @Test("without process and device the header leaves them out")
    func bareHeader() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        try fixture.probe(process: nil, device: nil).close()
        let input = try fixture.read()
        #expect(input.info.process == nil)
        #expect(input.info.deviceHint == nil)
        #expect(input.timeline.isEmpty)
    }

    @Test("every event type, with every field, reads back exactly")
    func everyType() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        probe.lifecycle(.background)
        probe.wakeup(reason: "timer", source: "sync")
        probe.timer("refresh", interval: .seconds(30), tolerance: .milliseconds(1500), repeats: false)
        probe.poll("socket", interval: .milliseconds(250))
        probe.net(.tx, bytes: 512, host: "api.example.com", interface: .cellular, connection: "c1")
        probe.disk(.write, bytes: 4096, path: "Library/Caches/forecast.json", fileSize: 8192)
        probe.memory(footprint: 52_428_800)
        probe.memoryWarning()
        probe.resource("camera", .acquire, id: "back")
        probe.backgroundTask(.expire, id: "upload")
        probe.frame(changed: true)
        probe.sensor("gyro", .start, rateHz: 59.94)
        probe.location(.start, accuracyMeters: -1, distanceFilterMeters: 12.5)
        probe.idleTimer(disabled: true)
        probe.mark("checkpoint")
        let gpuStart = probe.now()
        probe.gpu("blur", start: gpuStart, duration: .microseconds(1250))
        let cpuStart = probe.now()
        probe.cpu("parse", start: cpuStart, duration: .nanoseconds(123_456_789))
        let markStart = probe.now()
        probe.mark("phase", start: markStart, duration: .seconds(2))
        probe.close()

        let input = try fixture.read()
        #expect(input.info.diagnostics.isEmpty)
        let timeline = input.timeline
        #expect(timeline.count == 18)
        let thread = try currentThreadName()
        for index in 0..<timeline.count where timeline.kind[index] != .memory {
            #expect(input.text(timeline.thread[index]) == thread, "event \(index)")
        }
        for index in 1..<timeline.count { #expect(timeline.time[index] >= timeline.time[index - 1]) }

        let kinds: [EventKind] = [
            .lifecycle, .wakeup, .timer, .poll, .net, .disk, .memory, .memoryWarning, .resource, .backgroundTask,
            .frame, .sensor, .location, .idleTimer, .mark, .gpu, .cpu, .mark,
        ]
        #expect(Array(timeline.kind) == kinds)

        func row(_ index: Int) -> Event { timeline[index] }
        #expect(row(0).code == LifecycleState.background.rawValue)
        #expect(input.text(row(1).label) == "timer")
        #expect(input.text(row(1).label2) == "sync")
        // timer: duration = interval, value = tolerance in seconds, code = repeats
        #expect(row(2).duration == 30_000_000_000)
        #expect(row(2).value == 1.5)
        #expect(row(2).code == 0)
        #expect(input.text(row(2).label) == "refresh")
        #expect(row(3).duration == 250_000_000)
        #expect(input.text(row(3).label) == "socket")
        #expect(row(4).code == NetDirection.tx.rawValue)
        #expect(row(4).code2 == LinkKind.cellular.rawValue)
        #expect(row(4).amount == 512)
        #expect(input.text(row(4).label) == "api.example.com")
        #expect(input.text(row(4).label2) == "c1")
        #expect(row(5).code == DiskOperation.write.rawValue)
        #expect(row(5).amount == 4096)
        #expect(row(5).amount2 == 8192)
        #expect(input.text(row(5).label) == "Library/Caches/forecast.json")
        #expect(row(6).amount == 52_428_800)
        #expect(input.text(row(6).thread) == "", "a footprint belongs to the process, not a thread")
        #expect(row(8).code == Action.start.rawValue)
        #expect(input.text(row(8).label) == "camera")
        #expect(input.text(row(8).label2) == "back")
        #expect(row(9).code == Action.expire.rawValue)
        #expect(input.text(row(9).label2) == "upload")
        #expect(row(10).code == 1)
        #expect(row(11).code == Action.start.rawValue)
        #expect(input.text(row(11).label) == "gyro")
        #expect(row(11).value == 59.94)
        #expect(row(12).code == Action.start.rawValue)
        #expect(row(12).value == -1)
        #expect(row(12).value2 == 12.5)
        #expect(row(13).code == 1)
        #expect(input.text(row(14).label) == "checkpoint")
        #expect(row(14).duration == 0)
        // Slices given a start and a duration keep both to the nanosecond.
        #expect(row(15).time == gpuStart.nanosecondsSinceStart)
        #expect(row(15).duration == 1_250_000)
        #expect(input.text(row(15).label) == "blur")
        #expect(row(16).time == cpuStart.nanosecondsSinceStart)
        #expect(row(16).duration == 123_456_789)
        #expect(input.text(row(16).label) == "parse")
        #expect(row(17).time == markStart.nanosecondsSinceStart)
        #expect(row(17).duration == 2_000_000_000)
        #expect(input.text(row(17).label) == "phase")
    }

    @Test("optional fields left out take the format's defaults")
    func defaults() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        probe.net(.rx, bytes: 18_230)
        probe.disk(.fsync)
        probe.timer(interval: .seconds(1))
        probe.sensor("accelerometer", .stop)
        probe.location(.stop)
        probe.wakeup()
        probe.close()

        let input = try fixture.read()
        #expect(input.info.diagnostics.isEmpty)
        let net = try #require(input.events(.net).first)
        #expect(net.code == NetDirection.rx.rawValue)
        #expect(net.code2 == LinkKind.unspecified.rawValue, "no iface: the device model's default link")
        #expect(net.amount == 18_230)
        #expect(net.label == 0 && net.label2 == 0)
        let disk = try #require(input.events(.disk).first)
        #expect(disk.code == DiskOperation.fsync.rawValue)
        #expect(disk.amount == 0)
        #expect(disk.amount2 == -1, "file size unknown")
        let timer = try #require(input.events(.timer).first)
        #expect(timer.code == 1, "repeats by default")
        #expect(timer.value == 0)
        #expect(try #require(input.events(.sensor).first).value == 0)
        let location = try #require(input.events(.location).first)
        #expect(location.code == Action.stop.rawValue)
        #expect(location.value == 0 && location.value2 == 0)
        #expect(try #require(input.events(.wakeup).first).label == 0)
    }

    @Test("every enumerated value is spelled as the format names it")
    func enumerations() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        let states: [(DrainProbe.LifecycleState, LifecycleState)] = [
            (.notRunning, .notRunning), (.inactive, .inactive), (.active, .active), (.background, .background),
            (.suspended, .suspended),
        ]
        let links: [(DrainProbe.NetInterface, LinkKind)] = [
            (.wifi, .wifi), (.cellular, .cellular), (.ethernet, .ethernet), (.loopback, .loopback),
        ]
        let operations: [(DrainProbe.DiskOperation, DiskOperation)] = [
            (.write, .write), (.fsync, .fsync), (.read, .read), (.truncate, .truncate),
        ]
        let tasks: [(DrainProbe.BackgroundTaskAction, Action)] = [(.begin, .start), (.end, .stop), (.expire, .expire)]
        let resources: [(DrainProbe.ResourceAction, Action)] = [(.acquire, .start), (.release, .stop)]
        let updates: [(DrainProbe.UpdateAction, Action)] = [(.start, .start), (.stop, .stop)]
        #expect(states.count == DrainProbe.LifecycleState.allCases.count)
        #expect(links.count == DrainProbe.NetInterface.allCases.count)
        #expect(operations.count == DrainProbe.DiskOperation.allCases.count)

        for (state, _) in states { probe.lifecycle(state) }
        for (link, _) in links {
            probe.net(.tx, bytes: 1, interface: link)
            probe.net(.rx, bytes: 2, interface: link)
        }
        for (operation, _) in operations { probe.disk(operation) }
        for (action, _) in tasks { probe.backgroundTask(action) }
        for (action, _) in resources { probe.resource("database", action) }
        for (action, _) in updates {
            probe.sensor("motion", action)
            probe.location(action)
        }
        probe.frame(changed: false)
        probe.idleTimer(disabled: false)
        probe.close()

        let input = try fixture.read()
        #expect(input.info.diagnostics.isEmpty)
        #expect(input.events(.lifecycle).map(\.code) == states.map(\.1.rawValue))
        #expect(input.events(.net).map(\.code2) == links.flatMap { [$0.1.rawValue, $0.1.rawValue] })
        #expect(input.events(.net).map(\.code) == links.flatMap { _ in [NetDirection.tx.rawValue, NetDirection.rx.rawValue] })
        #expect(input.events(.disk).map(\.code) == operations.map(\.1.rawValue))
        #expect(input.events(.backgroundTask).map(\.code) == tasks.map(\.1.rawValue))
        #expect(input.events(.resource).map(\.code) == resources.map(\.1.rawValue))
        #expect(input.events(.sensor).map(\.code) == updates.map(\.1.rawValue))
        #expect(input.events(.location).map(\.code) == updates.map(\.1.rawValue))
        #expect(input.events(.frame).map(\.code) == [0])
        #expect(input.events(.idleTimer).map(\.code) == [0])
    }

    @Test("times and durations keep every nanosecond; values out of the format's range are clamped or left out")
    func numbers() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        let start = probe.now()
        probe.cpu("one nanosecond", start: start, duration: .nanoseconds(1))
        probe.cpu("a day and a nanosecond", start: start, duration: .seconds(86_400) + .nanoseconds(1))
        probe.cpu("negative", start: start, duration: .milliseconds(-5))
        probe.timer(interval: .nanoseconds(1_000_000_001), tolerance: .nanoseconds(10))
        probe.net(.tx, bytes: -7)
        probe.disk(.write, bytes: Int(Int64.max), fileSize: -1)
        probe.sensor("gyro", .start, rateHz: .nan)
        probe.sensor("gyro", .start, rateHz: -3)
        probe.location(.start, accuracyMeters: .infinity, distanceFilterMeters: 1e-7)
        probe.memory(footprint: -1)
        probe.close()

        let input = try fixture.read()
        #expect(input.info.diagnostics.isEmpty)
        let cpu = input.events(.cpu)
        #expect(cpu.map(\.duration) == [1, 86_400_000_000_001, 0])
        #expect(cpu.allSatisfy { $0.time == start.nanosecondsSinceStart })
        let timer = try #require(input.events(.timer).first)
        #expect(timer.duration == 1_000_000_001)
        #expect(timer.value == 1e-8)
        #expect(input.events(.net).first?.amount == 0)
        let disk = try #require(input.events(.disk).first)
        #expect(disk.amount == Int64.max)
        #expect(disk.amount2 == -1)
        #expect(input.events(.sensor).map(\.value) == [0, 0])
        let location = try #require(input.events(.location).first)
        #expect(location.value == 0)
        #expect(location.value2 == 1e-7)
        #expect(input.events(.memory).first?.amount == 0)
        // The written text of `t` and `dur`: at most nine decimals, no trailing zeros.
        let lines = try fixture.lines()
        #expect(lines[1].contains(#""dur":0.000000001,"#))
        #expect(lines[2].contains(#""dur":86400.000000001,"#))
        #expect(lines[3].contains(#""dur":0,"#))
    }

    @Test("measure records a CPU slice around its closure, also when it throws")
    func measure() throws {
        struct Failure: Error {}
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let probe = try fixture.probe()
        let before = probe.now()
        let value = probe.measure("sum") { (1...1000).reduce(0, +) }
        let between = probe.now()
        #expect(throws: Failure.self) { try probe.measure("fails") { () throws(Failure) -> Int in throw Failure() } }
        let after = probe.now()
        probe.close()
        #expect(value == 500_500)

        let input = try fixture.read()
        let slices = input.events(.cpu)
        #expect(slices.map { input.text($0.label) } == ["sum", "fails"])
        #expect(slices[0].time >= before.nanosecondsSinceStart)
        #expect(slices[0].time + slices[0].duration <= between.nanosecondsSinceStart)
        #expect(slices[1].time >= between.nanosecondsSinceStart)
        #expect(slices[1].time + slices[1].duration <= after.nanosecondsSinceStart)
    }
}
