import DrainTrace
import DrainTraceWriter

/// The field names of Drain trace version 1, header and events (docs/trace-format.md): the
/// writers' `TraceKey`, so that reader and writers share one list.
typealias TraceField = TraceKey

extension TraceKey {
    /// The field's name in a trace.
    var key: String { "\(name)" }

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
