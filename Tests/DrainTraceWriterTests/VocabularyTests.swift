import DrainTrace
import DrainTraceWriter
import Testing

/// The writer's vocabulary is the reader's: each spelling belongs to the code of the same
/// raw value in DrainTrace, which the reader and the rules use.
@Suite struct VocabularyTests {
    @Test func spellingsMatchTheTimelineCodes() {
        for type in TraceEventType.allCases {
            #expect("\(type.name)" == EventKind(rawValue: type.rawValue)?.traceName)
        }
        #expect(TraceEventType.allCases.count == EventKind.allCases.count - 1)  // not `unknown`
        for state in TraceLifecycleState.allCases { #expect("\(state.name)" == LifecycleState(rawValue: state.rawValue)?.traceName) }
        for direction in TraceNetDirection.allCases { #expect("\(direction.name)" == NetDirection(rawValue: direction.rawValue)?.traceName) }
        for link in TraceNetInterface.allCases { #expect("\(link.name)" == LinkKind(rawValue: link.rawValue)?.traceName) }
        for operation in TraceDiskOperation.allCases { #expect("\(operation.name)" == DiskOperation(rawValue: operation.rawValue)?.traceName) }
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
