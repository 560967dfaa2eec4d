import DrainTrace
import DrainTraceWriter

/// The names a Drain trace is written in — field names, type names and the spellings of
/// enum values, as DrainTraceWriter spells them for every writer — each mapped to its code.
/// Built once per process (`shared`).
struct TraceVocabulary: Sendable {
    static let shared = TraceVocabulary()

    // The writer's raw values are the reader's codes (TraceField, EventKind, LifecycleState, …).
    let fieldNames = TraceVocabulary.table(TraceKey.allCases, \.name, \.rawValue)
    let eventKinds = TraceVocabulary.table(TraceEventType.allCases, \.name, \.rawValue)
    let lifecycleStates = TraceVocabulary.table(TraceLifecycleState.allCases, \.name, \.rawValue)
    let directions = TraceVocabulary.table(TraceNetDirection.allCases, \.name, \.rawValue)
    let links = TraceVocabulary.table(TraceNetInterface.allCases, \.name, \.rawValue)
    let diskOperations = TraceVocabulary.table(TraceDiskOperation.allCases, \.name, \.rawValue)
    let resourceActions = TraceVocabulary.table(TraceResourceAction.allCases, \.name, \.rawValue)
    let backgroundTaskActions = TraceVocabulary.table(TraceBackgroundTaskAction.allCases, \.name, \.rawValue)
    let startStopActions = TraceVocabulary.table(TraceUpdateAction.allCases, \.name, \.rawValue)

    private init() {}

    private static func table<Value>(_ values: [Value], _ name: (Value) -> StaticString, _ code: (Value) -> UInt8) -> NameTable {
        NameTable(values.map { ("\(name($0))", code($0)) })
    }
}
