import DrainTrace
import DrainTraceWriter

/// Writes timeline rows as Drain trace lines (docs/trace-format.md), the reverse of
/// `DrainTraceImporter`: what the recorder does with the events of a run's strace log, and
/// what `drain export --drain-trace` does with a whole run. Every column the reader fills
/// is written, so reading the lines back gives the same rows, except a `net` event's
/// duration (a coalesced run of packets), which the format has no field for.
public enum TimelineTraceWriter {
    /// The most bytes a line takes besides its strings: keys, enum names and numbers.
    static let fixedBound = 512

    /// Appends `event` at `time` (nanoseconds on the trace's clock) with its strings from
    /// `strings`, newline included. Returns false, writing nothing, for `unknown` events,
    /// which have no type of their own to write. O(length of its strings).
    @discardableResult
    public static func append(_ event: Event, at time: Nanoseconds, strings: StringTable, to line: inout JSONLine) -> Bool {
        guard let type = TraceEventType(rawValue: event.kind.rawValue) else { return false }
        let bound = fixedBound + JSONFormatter.bound(of: strings[event.label]) + JSONFormatter.bound(of: strings[event.label2])
            + JSONFormatter.bound(of: strings[event.thread])
        line.format(bound: bound) { line in
            line.timePrefix(time)
            line.type(type)
            fields(of: event, type: type, strings: strings, into: &line)
            if event.thread != 0 { thread(strings[event.thread], into: &line) }
            line.endLine()
        }
        return true
    }

    private static func fields(of event: Event, type: TraceEventType, strings: StringTable, into line: inout JSONFormatter) {
        func label(_ key: TraceKey, _ id: StringID) {
            if id != 0 { line.field(key, strings[id]) }
        }
        func spelling(_ key: TraceKey, _ name: StaticString?) {
            if let name { line.field(key, name) }
        }
        func real(_ key: TraceKey, _ value: Double) {
            // JSON has no NaN or infinity.
            guard value.isFinite else { return }
            line.key(key)
            line.real(value)
        }
        switch type {
        case .lifecycle:
            spelling(.state, TraceLifecycleState(rawValue: event.code)?.name)
        case .wakeup:
            label(.reason, event.label)
            label(.source, event.label2)
        case .cpu, .gpu:
            label(.name, event.label)
            line.seconds(.dur, event.duration)
        case .mark:
            // A mark's name is required, even when empty.
            line.field(.name, strings[event.label])
            line.seconds(.dur, event.duration)
        case .timer:
            line.seconds(.interval, event.duration)
            line.seconds(.tolerance, Clock.nanoseconds(event.value))
            line.boolean(.repeats, event.code != 0)
            label(.name, event.label)
        case .poll:
            line.seconds(.interval, event.duration)
            label(.source, event.label)
        case .net:
            spelling(.dir, TraceNetDirection(rawValue: event.code)?.name)
            line.integer(.bytes, event.amount)
            spelling(.iface, TraceNetInterface(rawValue: event.code2)?.name)
            label(.host, event.label)
            label(.conn, event.label2)
        case .disk:
            spelling(.op, TraceDiskOperation(rawValue: event.code)?.name)
            line.integer(.bytes, event.amount)
            if event.amount2 >= 0 { line.integer(.fileSize, event.amount2) }
            label(.path, event.label)
        case .memory:
            line.integer(.footprint, event.amount)
        case .memoryWarning:
            break
        case .resource:
            spelling(.action, TraceResourceAction(rawValue: event.code)?.name)
            line.field(.kind, strings[event.label])
            label(.id, event.label2)
        case .backgroundTask:
            spelling(.action, TraceBackgroundTaskAction(rawValue: event.code)?.name)
            label(.id, event.label2)
        case .frame:
            line.boolean(.changed, event.code != 0)
        case .sensor:
            spelling(.action, TraceUpdateAction(rawValue: event.code)?.name)
            line.field(.kind, strings[event.label])
            real(.rateHz, event.value)
        case .location:
            spelling(.action, TraceUpdateAction(rawValue: event.code)?.name)
            real(.accuracyM, event.value)
            real(.distanceFilterM, event.value2)
        case .idleTimer:
            line.boolean(.disabled, event.code != 0)
        }
    }

    /// `,"thread":` as an integer when the id is a plain decimal number (how strace names
    /// threads), otherwise as a string.
    private static func thread(_ name: String, into line: inout JSONFormatter) {
        line.key(.thread)
        let digits = name.utf8
        if !digits.isEmpty, digits.count <= 18, digits.first != UInt8(ascii: "0") || digits.count == 1,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            var copy = name
            copy.withUTF8 { line.raw(UnsafeRawBufferPointer($0)) }
        } else {
            line.string(name)
        }
    }
}
