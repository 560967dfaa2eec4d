/// The event types of a Drain trace (docs/trace-format.md), as written in `type`.
///
/// Raw values are the codes of DrainTrace's `EventKind`, so a timeline's `kind` column
/// converts with `init(rawValue:)`.
public enum TraceEventType: UInt8, CaseIterable, Sendable {
    case lifecycle = 0, wakeup, cpu, timer, poll, net, disk, memory, memoryWarning, resource
    case backgroundTask, gpu, frame, sensor, location, idleTimer, mark

    /// The spelling in the `type` field.
    @inlinable
    public var name: StaticString {
        switch self {
        case .lifecycle: "lifecycle"
        case .wakeup: "wakeup"
        case .cpu: "cpu"
        case .timer: "timer"
        case .poll: "poll"
        case .net: "net"
        case .disk: "disk"
        case .memory: "memory"
        case .memoryWarning: "memory_warning"
        case .resource: "resource"
        case .backgroundTask: "background_task"
        case .gpu: "gpu"
        case .frame: "frame"
        case .sensor: "sensor"
        case .location: "location"
        case .idleTimer: "idle_timer"
        case .mark: "mark"
        }
    }
}
