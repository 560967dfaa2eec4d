/// The field names of Drain trace version 1, events and header (docs/trace-format.md).
/// Names are a contract: never renamed.
///
/// The reader (DrainImport) uses this list too, so reader and writers cannot disagree.
public enum TraceKey: UInt8, CaseIterable, Sendable {
    case t, type, thread
    case state, reason, source, dur, name, interval, tolerance, repeats
    case dir, bytes, host, iface, conn, op, path, fileSize, footprint
    case kind, action, id, changed, rateHz, accuracyM, distanceFilterM, disabled
    case drainTrace, process, pid, device, start

    /// The field's name in a trace.
    @inlinable
    public var name: StaticString {
        switch self {
        case .t: "t"
        case .type: "type"
        case .thread: "thread"
        case .state: "state"
        case .reason: "reason"
        case .source: "source"
        case .dur: "dur"
        case .name: "name"
        case .interval: "interval"
        case .tolerance: "tolerance"
        case .repeats: "repeats"
        case .dir: "dir"
        case .bytes: "bytes"
        case .host: "host"
        case .iface: "iface"
        case .conn: "conn"
        case .op: "op"
        case .path: "path"
        case .fileSize: "file_size"
        case .footprint: "footprint"
        case .kind: "kind"
        case .action: "action"
        case .id: "id"
        case .changed: "changed"
        case .rateHz: "rate_hz"
        case .accuracyM: "accuracy_m"
        case .distanceFilterM: "distance_filter_m"
        case .disabled: "disabled"
        case .drainTrace: "drain_trace"
        case .process: "process"
        case .pid: "pid"
        case .device: "device"
        case .start: "start"
        }
    }
}
