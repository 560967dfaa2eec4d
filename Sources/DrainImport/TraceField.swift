import DrainTrace

/// The field names of Drain trace version 1, header and events (see docs/trace-format.md).
/// Names are a contract: never renamed.
enum TraceField: UInt8, CaseIterable {
    case t, type, thread
    case state, reason, source, dur, name, interval, tolerance, repeats
    case dir, bytes, host, iface, conn, op, path, fileSize, footprint
    case kind, action, id, changed, rateHz, accuracyM, distanceFilterM, disabled
    case drainTrace, process, pid, device, start

    /// The field's name in a trace.
    var key: String {
        switch self {
        case .fileSize: "file_size"
        case .rateHz: "rate_hz"
        case .accuracyM: "accuracy_m"
        case .distanceFilterM: "distance_filter_m"
        case .drainTrace: "drain_trace"
        default: "\(self)"
        }
    }

    /// This field's bit in a field set (a `UInt64` with one bit per field).
    @inline(__always)
    var bit: UInt64 { 1 &<< UInt64(rawValue) }

    /// Fields a header may carry.
    static var headerFields: UInt64 {
        drainTrace.bit | process.bit | pid.bit | device.bit | start.bit
    }

    /// The fields an event of `eventKind` may carry, the common `t`, `type` and `thread`
    /// included; others are unknown to it and ignored. O(1), no allocation.
    @inline(__always)
    static func fields(of eventKind: EventKind) -> UInt64 {
        let common = t.bit | type.bit | thread.bit
        switch eventKind {
        case .lifecycle: return common | state.bit
        case .wakeup: return common | reason.bit | source.bit
        case .cpu, .gpu: return common | dur.bit | name.bit
        case .timer: return common | name.bit | interval.bit | tolerance.bit | repeats.bit
        case .poll: return common | source.bit | interval.bit
        case .net: return common | dir.bit | bytes.bit | host.bit | iface.bit | conn.bit
        case .disk: return common | op.bit | bytes.bit | path.bit | fileSize.bit
        case .memory: return common | footprint.bit
        case .memoryWarning: return common
        case .resource: return common | kind.bit | action.bit | id.bit
        case .backgroundTask: return common | action.bit | id.bit
        case .frame: return common | changed.bit
        case .sensor: return common | kind.bit | action.bit | rateHz.bit
        case .location: return common | action.bit | accuracyM.bit | distanceFilterM.bit
        case .idleTimer: return common | disabled.bit
        case .mark: return common | name.bit | dur.bit
        case .unknown: return ~0
        }
    }
}
