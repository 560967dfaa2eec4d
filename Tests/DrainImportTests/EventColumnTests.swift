import DrainTrace
import Testing

@testable import DrainImport

/// Every event type and field lands in the column the `Event` table names.
@Suite("Drain trace event columns")
struct EventColumnTests {
    @Test("every event type and field goes to its column")
    func everyType() throws {
        let input = try importTrace([
            header,
            #"{"t":0,"type":"lifecycle","state":"not_running"}"#,
            #"{"t":0.1,"type":"lifecycle","state":"suspended"}"#,
            #"{"t":1,"type":"wakeup","reason":"timer","source":"refresh","thread":"main"}"#,
            #"{"t":2,"type":"cpu","dur":0.015,"name":"layout","thread":7}"#,
            #"{"t":3,"type":"timer","name":"heartbeat","interval":30,"tolerance":0.5,"repeats":false}"#,
            #"{"t":4,"type":"poll","source":"socket","interval":0.25}"#,
            #"{"t":5,"type":"net","dir":"rx","bytes":18230,"host":"api.example.com","iface":"cellular","conn":"c1"}"#,
            #"{"t":6,"type":"disk","op":"truncate","bytes":0,"path":"Documents/state.plist","file_size":4096}"#,
            #"{"t":7,"type":"memory","footprint":52428800}"#,
            #"{"t":8,"type":"memory_warning"}"#,
            #"{"t":9,"type":"resource","kind":"camera","action":"release","id":"back"}"#,
            #"{"t":10,"type":"background_task","action":"expire","id":"upload"}"#,
            #"{"t":11,"type":"gpu","dur":0.004,"name":"render"}"#,
            #"{"t":12,"type":"frame","changed":true}"#,
            #"{"t":13,"type":"sensor","kind":"gyro","action":"start","rate_hz":60}"#,
            #"{"t":14,"type":"location","action":"start","accuracy_m":-1,"distance_filter_m":50}"#,
            #"{"t":15,"type":"idle_timer","disabled":true}"#,
            #"{"t":16,"type":"mark","name":"scroll","dur":1.25}"#,
        ])
        let timeline = input.timeline
        #expect(timeline.count == 18)
        #expect(input.info.events == 18)
        #expect(input.info.diagnostics.isEmpty)

        var row = 0
        func next() -> Event {
            defer { row += 1 }
            return timeline[row]
        }

        var event = next()
        #expect(event.kind == .lifecycle && event.code == LifecycleState.notRunning.rawValue && event.time == 0)
        event = next()
        #expect(event.kind == .lifecycle && event.code == LifecycleState.suspended.rawValue)
        #expect(event.time == 100_000_000)

        event = next()
        #expect(event.kind == .wakeup && event.time == 1_000_000_000)
        #expect(timeline.text(event.label) == "timer" && timeline.text(event.label2) == "refresh")
        #expect(timeline.text(event.thread) == "main")

        event = next()
        #expect(event.kind == .cpu && event.duration == 15_000_000)
        #expect(timeline.text(event.label) == "layout" && timeline.text(event.thread) == "7")

        event = next()
        #expect(event.kind == .timer && event.duration == 30_000_000_000 && event.value == 0.5)
        #expect(event.code == 0 && timeline.text(event.label) == "heartbeat")

        event = next()
        #expect(event.kind == .poll && event.duration == 250_000_000 && timeline.text(event.label) == "socket")

        event = next()
        #expect(event.kind == .net && event.code == NetDirection.rx.rawValue && event.code2 == LinkKind.cellular.rawValue)
        #expect(event.amount == 18230 && timeline.text(event.label) == "api.example.com")
        #expect(timeline.text(event.label2) == "c1")

        event = next()
        #expect(event.kind == .disk && event.code == DiskOperation.truncate.rawValue)
        #expect(event.amount == 0 && event.amount2 == 4096 && timeline.text(event.label) == "Documents/state.plist")

        event = next()
        #expect(event.kind == .memory && event.amount == 52_428_800)

        event = next()
        #expect(event.kind == .memoryWarning && event.time == 8_000_000_000)

        event = next()
        #expect(event.kind == .resource && event.code == Action.stop.rawValue)
        #expect(timeline.text(event.label) == "camera" && timeline.text(event.label2) == "back")

        event = next()
        #expect(event.kind == .backgroundTask && event.code == Action.expire.rawValue)
        #expect(event.label == 0 && timeline.text(event.label2) == "upload")

        event = next()
        #expect(event.kind == .gpu && event.duration == 4_000_000 && timeline.text(event.label) == "render")

        event = next()
        #expect(event.kind == .frame && event.code == 1)

        event = next()
        #expect(event.kind == .sensor && event.code == Action.start.rawValue && event.value == 60)
        #expect(timeline.text(event.label) == "gyro")

        event = next()
        #expect(event.kind == .location && event.code == Action.start.rawValue)
        #expect(event.value == -1 && event.value2 == 50)

        event = next()
        #expect(event.kind == .idleTimer && event.code == 1)

        event = next()
        #expect(event.kind == .mark && event.duration == 1_250_000_000 && timeline.text(event.label) == "scroll")
        #expect(timeline.input.allSatisfy { $0 == 0 })
    }

    @Test("optional fields take their documented defaults")
    func defaults() throws {
        let input = try importTrace([
            header,
            #"{"t":0,"type":"wakeup"}"#,
            #"{"t":1,"type":"cpu","dur":0}"#,
            #"{"t":2,"type":"timer","interval":1}"#,
            #"{"t":3,"type":"net","dir":"tx","bytes":1}"#,
            #"{"t":4,"type":"disk","op":"fsync"}"#,
            #"{"t":5,"type":"background_task","action":"begin"}"#,
            #"{"t":6,"type":"sensor","kind":"accelerometer","action":"stop"}"#,
            #"{"t":7,"type":"location","action":"stop"}"#,
            #"{"t":8,"type":"mark","name":"launch"}"#,
        ])
        let timeline = input.timeline
        let wakeup = timeline[0]
        #expect(wakeup.label == 0 && wakeup.label2 == 0 && wakeup.thread == 0)
        #expect(timeline[1].label == 0)
        let timer = timeline[2]
        #expect(timer.code == 1 && timer.value == 0 && timer.label == 0)
        let net = timeline[3]
        #expect(net.code2 == LinkKind.unspecified.rawValue && net.label == 0 && net.label2 == 0)
        let disk = timeline[4]
        #expect(disk.code == DiskOperation.fsync.rawValue && disk.amount == 0 && disk.amount2 == -1 && disk.label == 0)
        #expect(timeline[5].code == Action.start.rawValue && timeline[5].label2 == 0)
        #expect(timeline[6].value == 0)
        #expect(timeline[7].value == 0 && timeline[7].value2 == 0)
        #expect(timeline[8].duration == 0)
    }

    @Test("null means the field is absent")
    func nullIsAbsent() throws {
        let input = try importTrace([
            header,
            #"{"t":0,"type":"net","dir":"tx","bytes":10,"host":null,"iface":null,"thread":null}"#,
        ])
        let net = input.timeline[0]
        #expect(net.label == 0 && net.code2 == LinkKind.unspecified.rawValue && net.thread == 0)
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test("whitespace between tokens, field order and repeated fields")
    func layout() throws {
        let input = try importTrace([
            header,
            "  { \"type\" : \"net\" ,\t\"bytes\" : 5 , \"dir\":\"tx\", \"t\" : 2 }  \r",
            #"{"t":3,"type":"mark","name":"first","name":"second"}"#,
        ])
        #expect(input.timeline[0].kind == .net && input.timeline[0].amount == 5)
        #expect(input.timeline[0].time == 2_000_000_000)
        // The last of two equal names counts.
        #expect(input.timeline.text(input.timeline[1].label) == "second")
    }

    @Test("a thread given as a number and as a string is the same thread")
    func threadIDs() throws {
        let input = try importTrace([
            header,
            #"{"t":0,"type":"cpu","dur":0.001,"thread":42}"#,
            #"{"t":1,"type":"cpu","dur":0.001,"thread":"42"}"#,
        ])
        #expect(input.timeline[0].thread == input.timeline[1].thread)
        #expect(input.timeline.text(input.timeline[0].thread) == "42")
    }

    @Test("every row carries the input index it was read with")
    func inputIndex() throws {
        let fixture = try TraceFixture(header + "\n" + #"{"t":0,"type":"memory_warning"}"# + "\n")
        defer { fixture.remove() }
        let input = try DrainTraceImporter.read(path: fixture.path, inputIndex: 3)
        #expect(Array(input.timeline.input) == [3])
    }
}

/// Identifier fields take a number where a program naturally writes one (issue 13: a socket
/// descriptor as `conn` refused the whole trace at its first line).
@Suite struct NumericIdentifierTests {
    @Test func connectionsAndIdsMayBeWholeNumbersTheSameAsTheirDigits() throws {
        let input = try importTrace([
            header,
            #"{"t":1,"type":"net","dir":"tx","bytes":10,"host":"a.example","conn":757}"#,
            #"{"t":1.1,"type":"net","dir":"rx","bytes":20,"host":"a.example","conn":"757"}"#,
            #"{"t":2,"type":"background_task","action":"begin","id":42}"#,
            #"{"t":3,"type":"resource","kind":"socket","action":"acquire","id":9}"#,
        ])
        let timeline = input.timeline
        #expect(timeline.count == 4)
        #expect(timeline.label2[0] == timeline.label2[1])
        #expect(timeline.strings[timeline.label2[0]] == "757")
        #expect(timeline.strings[timeline.label2[2]] == "42")
        #expect(timeline.strings[timeline.label2[3]] == "9")
    }
}
