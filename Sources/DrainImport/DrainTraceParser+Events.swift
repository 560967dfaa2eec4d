import DrainTrace

extension DrainTraceParser {
    /// Reads one event line and appends it to the timeline; a rejected line appends nothing.
    mutating func parseEvent(_ source: Line) throws(LineError) {
        try line.scan(source, from: 0, names: vocabulary.fieldNames)
        guard line.has(.t) else { throw LineError(at: line.objectStart, "missing \"t\" (every event needs \"t\" and \"type\")") }
        guard line.has(.type) else {
            throw LineError(at: line.objectStart, "missing \"type\" (every event needs \"t\" and \"type\")")
        }
        let time = try line.nanoseconds(.t)
        let typeName = try line.string(.type)
        let kind = vocabulary.eventKinds.code(ofPadded: typeName).flatMap(EventKind.init(rawValue:)) ?? .unknown
        var event = Event(time: time, kind: kind)
        event.thread = try identifier(.thread)
        try readFields(of: kind, into: &event)
        // `t` and `dur` fit one each, but a span must also end within the clock's range.
        if kind.durationIsSpan, event.duration > Nanoseconds.max - time {
            throw LineError(
                at: line.valueOffset(.dur), "\"t\" plus \"dur\" is too large (the event must end by about 9.2e9 seconds)")
        }
        if kind == .unknown {
            event.label = intern(typeName)
            if unknownTypes.count == 0 {
                unknownTypes.first(
                    message: "event type \(QuotedText.quote(typeName)) is not known to this reader; such events are kept as \"unknown\" and ignored by pricing and rules",
                    line: line.number, offset: line.valueOffset(.type))
            }
            unknownTypes.count += 1
        } else {
            tallyUnknownFields(allowed: TraceField.fields(of: kind), context: "a \"\(kind.traceName)\" event")
        }
        timeline.append(event, input: inputIndex)
    }

    /// Fills the payload columns of `event` from the line's fields, as the `Event` table and
    /// docs/trace-format.md say.
    @inline(__always)
    private mutating func readFields(of kind: EventKind, into event: inout Event) throws(LineError) {
        switch kind {
        case .lifecycle:
            guard line.has(.state) else { throw line.missing(.state, in: kind) }
            event.code = try line.code(.state, in: vocabulary.lifecycleStates)
        case .wakeup:
            event.label = try internedString(.reason)
            event.label2 = try internedString(.source)
        case .cpu, .gpu:
            guard line.has(.dur) else { throw line.missing(.dur, in: kind) }
            event.duration = try line.nanoseconds(.dur)
            event.label = try internedString(.name)
        case .timer:
            guard line.has(.interval) else { throw line.missing(.interval, in: kind) }
            event.duration = try line.nanoseconds(.interval)
            event.label = try internedString(.name)
            if line.has(.tolerance) { event.value = try line.real(.tolerance) }
            event.code = line.has(.repeats) ? (try line.bool(.repeats) ? 1 : 0) : 1
        case .poll:
            guard line.has(.interval) else { throw line.missing(.interval, in: kind) }
            event.duration = try line.nanoseconds(.interval)
            event.label = try internedString(.source)
        case .net:
            guard line.has(.dir) else { throw line.missing(.dir, in: kind) }
            guard line.has(.bytes) else { throw line.missing(.bytes, in: kind) }
            event.code = try line.code(.dir, in: vocabulary.directions)
            event.amount = try line.count(.bytes)
            if line.has(.iface) { event.code2 = try line.code(.iface, in: vocabulary.links) }
            event.label = try internedString(.host)
            event.label2 = try identifier(.conn)
        case .disk:
            guard line.has(.op) else { throw line.missing(.op, in: kind) }
            event.code = try line.code(.op, in: vocabulary.diskOperations)
            if line.has(.bytes) { event.amount = try line.count(.bytes) }
            if line.has(.fileSize) { event.amount2 = try line.count(.fileSize) }
            event.label = try internedString(.path)
        case .memory:
            guard line.has(.footprint) else { throw line.missing(.footprint, in: kind) }
            event.amount = try line.count(.footprint)
        case .memoryWarning, .unknown:
            break
        case .resource:
            guard line.has(.kind) else { throw line.missing(.kind, in: kind) }
            guard line.has(.action) else { throw line.missing(.action, in: kind) }
            event.label = try internedString(.kind)
            event.code = try line.code(.action, in: vocabulary.resourceActions)
            event.label2 = try identifier(.id)
        case .backgroundTask:
            guard line.has(.action) else { throw line.missing(.action, in: kind) }
            event.code = try line.code(.action, in: vocabulary.backgroundTaskActions)
            event.label2 = try identifier(.id)
        case .frame:
            guard line.has(.changed) else { throw line.missing(.changed, in: kind) }
            event.code = try line.bool(.changed) ? 1 : 0
        case .sensor:
            guard line.has(.kind) else { throw line.missing(.kind, in: kind) }
            guard line.has(.action) else { throw line.missing(.action, in: kind) }
            event.label = try internedString(.kind)
            event.code = try line.code(.action, in: vocabulary.startStopActions)
            if line.has(.rateHz) { event.value = try line.real(.rateHz) }
        case .location:
            guard line.has(.action) else { throw line.missing(.action, in: kind) }
            event.code = try line.code(.action, in: vocabulary.startStopActions)
            if line.has(.accuracyM) { event.value = try line.real(.accuracyM, allowNegative: true) }
            if line.has(.distanceFilterM) { event.value2 = try line.real(.distanceFilterM, allowNegative: true) }
        case .idleTimer:
            guard line.has(.disabled) else { throw line.missing(.disabled, in: kind) }
            event.code = try line.bool(.disabled) ? 1 : 0
        case .mark:
            guard line.has(.name) else { throw line.missing(.name, in: kind) }
            event.label = try internedString(.name)
            if line.has(.dur) { event.duration = try line.nanoseconds(.dur) }
        }
    }
}
