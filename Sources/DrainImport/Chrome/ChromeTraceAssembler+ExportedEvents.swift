import DrainTrace

/// Reading back what `drain export --chrome` wrote: an instant of category `drain.KIND`
/// (`drain.net`, `drain.disk`, `drain.lifecycle`…) is a Drain event of that kind, its `args`
/// the event's fields under their trace-format names (docs/trace-format.md). So an exported
/// run imports as the same events, not as marks.
extension ChromeTraceAssembler {
    /// The Drain kind an exported instant stands for, or nil for any other instant. Kinds
    /// written as slices or counters (`cpu`, `gpu`, `mark`, `memory`) are read as such, not here.
    mutating func exportedKind() throws(LineError) -> EventKind? {
        guard let category = try fields.string(.category), category.count > Self.exportPrefix.count,
            category.starts(with: Self.exportPrefix.utf8)
        else { return nil }
        let name = UnsafeRawBufferPointer(rebasing: category[Self.exportPrefix.count...])
        guard let kind = EventKind.allCases.first(where: { name.elementsEqual($0.traceName.utf8) }) else { return nil }
        switch kind {
        case .cpu, .gpu, .mark, .memory, .unknown: return nil
        default: return kind
        }
    }

    private static var exportPrefix: String { "drain." }

    /// Fills the payload columns of `event` from the instant's `args`, as the Drain trace
    /// reader does from a line; arguments of the wrong type or unknown spellings are left
    /// at their defaults (the export writes every field it has).
    mutating func readExportedFields(into event: inout Event) throws(LineError) {
        let vocabulary = TraceVocabulary.shared
        let kind = event.kind
        var labelText: JSONSpan?
        var label2Text: JSONSpan?
        fields.forEachArgument { fields, key, value in
            func named(_ name: String) -> Bool { key.elementsEqual(name.utf8) }
            func code(_ table: NameTable) -> UInt8? {
                value.kind == .string ? table.code(ofPadded: fields.text(of: value)) : nil
            }
            let number = fields.double(value)
            let flag: UInt8? = value.kind == .true ? 1 : value.kind == .false ? 0 : nil
            let text = value.kind == .string ? value : nil
            switch kind {
            case .wakeup where named("reason"), .timer where named("name"), .poll where named("source"),
                .net where named("host"), .disk where named("path"), .resource where named("kind"),
                .sensor where named("kind"):
                labelText = text ?? labelText
            case .wakeup where named("source"), .net where named("conn"), .resource where named("id"),
                .backgroundTask where named("id"):
                label2Text = text ?? label2Text
            case .lifecycle where named("state"): event.code = code(vocabulary.lifecycleStates) ?? event.code
            case .net where named("dir"): event.code = code(vocabulary.directions) ?? event.code
            case .net where named("iface"): event.code2 = code(vocabulary.links) ?? event.code2
            case .disk where named("op"): event.code = code(vocabulary.diskOperations) ?? event.code
            case .resource where named("action"): event.code = code(vocabulary.resourceActions) ?? event.code
            case .backgroundTask where named("action"): event.code = code(vocabulary.backgroundTaskActions) ?? event.code
            case .sensor where named("action"), .location where named("action"):
                event.code = code(vocabulary.startStopActions) ?? event.code
            case .timer where named("repeats"), .frame where named("changed"), .idleTimer where named("disabled"):
                event.code = flag ?? event.code
            case .net where named("bytes"), .disk where named("bytes"):
                event.amount = number.map(Self.wholeCount) ?? event.amount
            case .disk where named("file_size"): event.amount2 = number.map(Self.wholeCount) ?? event.amount2
            case .timer where named("interval"), .poll where named("interval"), .net where named("span"):
                event.duration = number.map(Self.nanoseconds) ?? event.duration
            case .timer where named("tolerance"), .sensor where named("rate_hz"), .location where named("accuracy_m"):
                event.value = number ?? event.value
            case .location where named("distance_filter_m"): event.value2 = number ?? event.value2
            default: break
            }
        }
        if let labelText { event.label = intern(fields.text(of: labelText)) }
        if let label2Text { event.label2 = intern(fields.text(of: label2Text)) }
    }

    /// A byte count from its JSON number, clamped to the column's range.
    private static func wholeCount(_ value: Double) -> Int64 {
        value.isFinite ? Int64(min(max(0, value), 9.2e18).rounded()) : 0
    }

    /// Seconds, as the export writes intervals and spans, in whole nanoseconds.
    private static func nanoseconds(_ seconds: Double) -> Nanoseconds {
        seconds.isFinite ? Int64(min(max(0, seconds * 1e9), 9.2e18).rounded()) : 0
    }
}
