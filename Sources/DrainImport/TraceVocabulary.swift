import DrainTrace

/// The names a Drain trace is written in: field names, type names and the spellings of
/// enum values, each mapped to its code. Built once per process (`shared`).
struct TraceVocabulary: Sendable {
    static let shared = TraceVocabulary()

    let fieldNames = NameTable(TraceField.allCases.map { ($0.key, $0.rawValue) })
    let eventKinds = NameTable(EventKind.allCases.filter { $0 != .unknown }.map { ($0.traceName, $0.rawValue) })
    let lifecycleStates = NameTable(LifecycleState.allCases.map { ($0.traceName, $0.rawValue) })
    let directions = NameTable(NetDirection.allCases.map { ($0.traceName, $0.rawValue) })
    let links = NameTable(LinkKind.allCases.filter { $0 != .unspecified }.map { ($0.traceName, $0.rawValue) })
    let diskOperations = NameTable(DiskOperation.allCases.map { ($0.traceName, $0.rawValue) })
    let resourceActions = TraceVocabulary.actions([.start, .stop], for: .resource)
    let backgroundTaskActions = TraceVocabulary.actions([.start, .stop, .expire], for: .backgroundTask)
    let startStopActions = TraceVocabulary.actions([.start, .stop], for: .sensor)

    private init() {}

    private static func actions(_ actions: [Action], for kind: EventKind) -> NameTable {
        NameTable(actions.map { ($0.traceName(for: kind), $0.rawValue) })
    }
}
