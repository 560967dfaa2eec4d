#if os(Linux)
import DrainTrace

/// The Drain trace lines the sampler writes (docs/trace-format.md), each ending in `\n`.
extension JSONLine {
    /// `{"t":…,"type":"cpu","dur":…,"name":…,"thread":TID}`
    mutating func cpu(at time: Nanoseconds, duration: Nanoseconds, name: String, thread: Int32) {
        start(time, "cpu")
        raw(#","dur":"#)
        seconds(duration)
        raw(#","name":"#)
        string(name)
        threadField(thread)
        end()
    }

    /// `{"t":…,"type":"wakeup","reason":…,"thread":TID}`
    mutating func wakeup(at time: Nanoseconds, reason: StaticString, thread: Int32) {
        start(time, "wakeup")
        raw(#","reason":""#)
        raw(reason)
        byte(UInt8(ascii: "\""))
        threadField(thread)
        end()
    }

    /// `{"t":…,"type":"disk","op":"write","bytes":…,"thread":PID}`
    mutating func diskWrite(at time: Nanoseconds, bytes count: Int64, thread: Int32) {
        start(time, "disk")
        raw(#","op":"write","bytes":"#)
        integer(count)
        threadField(thread)
        end()
    }

    /// `{"t":…,"type":"memory","footprint":…}`
    mutating func memory(at time: Nanoseconds, footprint: Int64) {
        start(time, "memory")
        raw(#","footprint":"#)
        integer(footprint)
        end()
    }

    /// `{"t":…,"type":"net","dir":…,"bytes":…,"iface":…,"conn":…}`; `iface` is left out for
    /// `.unspecified`.
    mutating func net(at time: Nanoseconds, direction: NetDirection, bytes count: Int64, link: LinkKind, interface: String) {
        start(time, "net")
        raw(#","dir":""#)
        raw(direction == .tx ? "tx" : "rx")
        raw(#"","bytes":"#)
        integer(count)
        if link != .unspecified {
            raw(#","iface":"#)
            string(link.traceName)
        }
        raw(#","conn":"#)
        string(interface)
        end()
    }

    /// `{"t":SECONDS,"type":"TYPE"`
    mutating func start(_ time: Nanoseconds, _ type: StaticString) {
        raw(#"{"t":"#)
        seconds(time)
        raw(#","type":""#)
        raw(type)
        byte(UInt8(ascii: "\""))
    }

    mutating func threadField(_ thread: Int32) {
        raw(#","thread":"#)
        integer(Int64(thread))
    }

    mutating func end() {
        raw("}\n")
    }
}
#endif
