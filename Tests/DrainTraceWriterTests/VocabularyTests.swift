import DrainTrace
import DrainTraceWriter
import Testing

/// DrainTrace's codes take their spellings from the writer's vocabulary, so the two cannot
/// drift apart; these tests pin the spellings to docs/trace-format.md and check that every
/// code has a spelling (DrainTrace looks them up by raw value).
@Suite struct VocabularyTests {
    @Test func everyTimelineCodeHasTheDocumentedSpelling() {
        #expect(EventKind.allCases.map(\.traceName) == [
            "lifecycle", "wakeup", "cpu", "timer", "poll", "net", "disk", "memory", "memory_warning", "resource",
            "background_task", "gpu", "frame", "sensor", "location", "idle_timer", "mark", "unknown",
        ])
        #expect(LifecycleState.allCases.map(\.traceName) == ["not_running", "inactive", "active", "background", "suspended"])
        #expect(NetDirection.allCases.map(\.traceName) == ["tx", "rx"])
        #expect(LinkKind.allCases.map(\.traceName) == ["unspecified", "wifi", "cellular", "ethernet", "loopback"])
        #expect(DiskOperation.allCases.map(\.traceName) == ["write", "fsync", "read", "truncate"])
    }

    @Test func everyWriterSpellingReadsBackAsItsCode() {
        for type in TraceEventType.allCases { #expect(EventKind(traceName: "\(type.name)")?.rawValue == type.rawValue) }
        #expect(TraceEventType.allCases.count == EventKind.allCases.count - 1)  // not `unknown`
        for state in TraceLifecycleState.allCases { #expect(LifecycleState(traceName: "\(state.name)")?.rawValue == state.rawValue) }
        for direction in TraceNetDirection.allCases { #expect(NetDirection(traceName: "\(direction.name)")?.rawValue == direction.rawValue) }
        for link in TraceNetInterface.allCases { #expect(LinkKind(traceName: "\(link.name)")?.rawValue == link.rawValue) }
        for operation in TraceDiskOperation.allCases { #expect(DiskOperation(traceName: "\(operation.name)")?.rawValue == operation.rawValue) }
        for action in TraceResourceAction.allCases {
            #expect("\(action.name)" == Action(rawValue: action.rawValue)?.traceName(for: .resource))
        }
        for action in TraceBackgroundTaskAction.allCases {
            #expect("\(action.name)" == Action(rawValue: action.rawValue)?.traceName(for: .backgroundTask))
        }
        for action in TraceUpdateAction.allCases { #expect("\(action.name)" == Action(rawValue: action.rawValue)?.traceName(for: .sensor)) }
    }

    @Test func headerLinesLeaveOutWhatIsNotKnown() {
        var line = JSONLine()
        line.traceHeader(process: "Sync\"Notes", pid: 42, device: "iphone-lte", startNanosecondsSinceEpoch: 1_795_341_600_000_000_000)
        line.traceHeader(process: nil, pid: nil, device: nil, startNanosecondsSinceEpoch: nil)
        #expect(String(decoding: line.bytes, as: UTF8.self) == """
            {"drain_trace":1,"process":"Sync\\"Notes","pid":42,"device":"iphone-lte","start":"2026-11-22T10:00:00.000000000Z"}
            {"drain_trace":1}

            """)
    }
}
