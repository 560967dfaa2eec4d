#if os(Linux)
import DrainTrace

/// Writes a timeline row back out as a Drain trace line: how the recorder turns the events
/// of an imported strace log into lines of its own trace.
extension JSONLine {
    /// Appends `event` at `time` (nanoseconds on the trace's clock) with its strings from
    /// `strings`. Returns false, writing nothing, for `unknown` events, which have no type
    /// of their own to write.
    @discardableResult
    mutating func event(_ event: Event, at time: Nanoseconds, strings: StringTable) -> Bool {
        guard event.kind != .unknown else { return false }
        raw(#"{"t":"#)
        seconds(time)
        raw(#","type":"#)
        string(event.kind.traceName)
        fields(of: event, strings: strings)
        if event.thread != 0 { thread(strings[event.thread]) }
        end()
        return true
    }

    private mutating func fields(of event: Event, strings: StringTable) {
        switch event.kind {
        case .lifecycle:
            field("state", LifecycleState(rawValue: event.code)?.traceName)
        case .wakeup:
            label(",\"reason\":", event.label, strings)
            label(",\"source\":", event.label2, strings)
        case .cpu, .gpu, .mark:
            if event.kind == .mark {
                raw(#","name":"#)
                string(strings[event.label])
            } else {
                label(",\"name\":", event.label, strings)
            }
            raw(#","dur":"#)
            seconds(event.duration)
        case .timer:
            raw(#","interval":"#)
            seconds(event.duration)
            raw(#","tolerance":"#)
            seconds(Clock.nanoseconds(event.value))
            raw(#","repeats":"#)
            boolean(event.code != 0)
            label(",\"name\":", event.label, strings)
        case .poll:
            raw(#","interval":"#)
            seconds(event.duration)
            label(",\"source\":", event.label, strings)
        case .net:
            field("dir", NetDirection(rawValue: event.code)?.traceName)
            raw(#","bytes":"#)
            integer(event.amount)
            if let link = LinkKind(rawValue: event.code2), link != .unspecified { field("iface", link.traceName) }
            label(",\"host\":", event.label, strings)
            label(",\"conn\":", event.label2, strings)
        case .disk:
            field("op", DiskOperation(rawValue: event.code)?.traceName)
            raw(#","bytes":"#)
            integer(event.amount)
            if event.amount2 >= 0 {
                raw(#","file_size":"#)
                integer(event.amount2)
            }
            label(",\"path\":", event.label, strings)
        case .memory:
            raw(#","footprint":"#)
            integer(event.amount)
        case .memoryWarning, .unknown:
            break
        case .resource:
            field("action", Action(rawValue: event.code)?.traceName(for: .resource))
            raw(#","kind":"#)
            string(strings[event.label])
            label(",\"id\":", event.label2, strings)
        case .backgroundTask:
            field("action", Action(rawValue: event.code)?.traceName(for: .backgroundTask))
            label(",\"id\":", event.label2, strings)
        case .frame:
            raw(#","changed":"#)
            boolean(event.code != 0)
        case .sensor:
            field("action", Action(rawValue: event.code)?.traceName(for: .sensor))
            raw(#","kind":"#)
            string(strings[event.label])
            real(",\"rate_hz\":", event.value)
        case .location:
            field("action", Action(rawValue: event.code)?.traceName(for: .location))
            real(",\"accuracy_m\":", event.value)
            real(",\"distance_filter_m\":", event.value2)
        case .idleTimer:
            raw(#","disabled":"#)
            boolean(event.code != 0)
        }
    }

    /// `,"name":"value"` for an enum spelling; nothing when the code has none.
    private mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        raw(",\"")
        raw(name)
        raw("\":")
        string(value)
    }

    /// `key` and the string, when the id is not the empty string ("none").
    private mutating func label(_ key: StaticString, _ id: StringID, _ strings: StringTable) {
        guard id != 0 else { return }
        raw(key)
        string(strings[id])
    }

    /// `key` and a finite double; nothing for NaN or infinity, which JSON cannot hold.
    private mutating func real(_ key: StaticString, _ value: Double) {
        guard value.isFinite else { return }
        raw(key)
        var text = value.description
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    /// `,"thread":` as an integer when the id is a plain decimal number (how strace names
    /// threads), otherwise as a string.
    private mutating func thread(_ name: String) {
        raw(#","thread":"#)
        if !name.isEmpty, name.utf8.count <= 18, name.utf8.first != UInt8(ascii: "0") || name.utf8.count == 1,
            name.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            var copy = name
            copy.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
        } else {
            string(name)
        }
    }
}
#endif
