/// The fields of a Chrome trace event that Drain reads; the format's other fields (`id`,
/// `tts`, `tdur`, `bind_id`, `sf`, `stack`…) are skipped.
enum ChromeField: UInt8, CaseIterable {
    case phase, timestamp, duration, name, category, process, thread, arguments, scope

    /// The field's name in the JSON.
    var key: String {
        switch self {
        case .phase: "ph"
        case .timestamp: "ts"
        case .duration: "dur"
        case .name: "name"
        case .category: "cat"
        case .process: "pid"
        case .thread: "tid"
        case .arguments: "args"
        case .scope: "s"
        }
    }

    var bit: UInt16 { 1 << UInt16(rawValue) }

    /// The names, looked up straight from input bytes.
    static let table = NameTable(allCases.map { ($0.key, $0.rawValue) })
}
