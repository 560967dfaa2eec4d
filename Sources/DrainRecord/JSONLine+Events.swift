#if os(Linux)
import DrainTrace
import DrainTraceWriter

/// The Drain trace lines the sampler writes (docs/trace-format.md), each ending in `\n`.
extension JSONLine {
    /// The most bytes a sample line takes besides its strings.
    private static let fixedBound = 256

    /// `{"t":…,"type":"cpu","dur":…,"name":…,"thread":TID}`
    mutating func cpu(at time: Nanoseconds, duration: Nanoseconds, name: String, thread: Int32) {
        format(bound: Self.fixedBound + JSONFormatter.bound(of: name)) { line in
            line.timePrefix(time)
            line.type(.cpu)
            line.seconds(.dur, duration)
            line.field(.name, name)
            line.integer(.thread, Int64(thread))
            line.endLine()
        }
    }

    /// `{"t":…,"type":"wakeup","reason":…,"thread":TID}`
    mutating func wakeup(at time: Nanoseconds, reason: StaticString, thread: Int32) {
        format(bound: Self.fixedBound + reason.utf8CodeUnitCount) { line in
            line.timePrefix(time)
            line.type(.wakeup)
            line.field(.reason, reason)
            line.integer(.thread, Int64(thread))
            line.endLine()
        }
    }

    /// `{"t":…,"type":"disk","op":"write","bytes":…,"thread":PID}`
    mutating func diskWrite(at time: Nanoseconds, bytes count: Int64, thread: Int32) {
        format(bound: Self.fixedBound) { line in
            line.timePrefix(time)
            line.type(.disk)
            line.field(.op, TraceDiskOperation.write.name)
            line.integer(.bytes, count)
            line.integer(.thread, Int64(thread))
            line.endLine()
        }
    }

    /// `{"t":…,"type":"memory","footprint":…}`
    mutating func memory(at time: Nanoseconds, footprint: Int64) {
        format(bound: Self.fixedBound) { line in
            line.timePrefix(time)
            line.type(.memory)
            line.integer(.footprint, footprint)
            line.endLine()
        }
    }

    /// `{"t":…,"type":"net","dir":…,"bytes":…,"iface":…,"conn":…}`; `iface` is left out for
    /// `.unspecified`.
    mutating func net(at time: Nanoseconds, direction: TraceNetDirection, bytes count: Int64, link: LinkKind, interface: String) {
        format(bound: Self.fixedBound + JSONFormatter.bound(of: interface)) { line in
            line.timePrefix(time)
            line.type(.net)
            line.field(.dir, direction.name)
            line.integer(.bytes, count)
            if let link = TraceNetInterface(rawValue: link.rawValue) { line.field(.iface, link.name) }
            line.field(.conn, interface)
            line.endLine()
        }
    }
}
#endif
