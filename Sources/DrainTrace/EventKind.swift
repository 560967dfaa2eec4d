import DrainTraceWriter

/// The type of a trace event, as named by the `type` field of the Drain trace format.
///
/// Raw values are stable: they are stored in the timeline's `kind` column.
public enum EventKind: UInt8, CaseIterable, Sendable, Codable {
    case lifecycle = 0
    case wakeup
    case cpu
    case timer
    case poll
    case net
    case disk
    case memory
    case memoryWarning
    case resource
    case backgroundTask
    case gpu
    case frame
    case sensor
    case location
    case idleTimer
    case mark
    /// A type this reader does not know. The event is kept (its type name is in `label`)
    /// and ignored by pricing and rules, so that old readers accept new traces.
    case unknown

    /// The name used in the `type` field of a Drain trace (`TraceEventType`, the writers'
    /// vocabulary), or `unknown`.
    public var traceName: String {
        TraceEventType(rawValue: rawValue).map { "\($0.name)" } ?? "unknown"
    }

    /// Whether the `duration` column is time the event itself spans (a CPU or GPU slice, a
    /// mark, a coalesced run of packets) rather than a period it declares (a timer's or poll's
    /// interval), so whether it extends the run's end.
    public var durationIsSpan: Bool {
        switch self {
        case .cpu, .gpu, .mark, .net: true
        default: false
        }
    }

    /// Looks a kind up by its trace name; `nil` for names this reader does not know.
    public init?(traceName: String) {
        guard let kind = EventKind.allCases.first(where: { $0.traceName == traceName && $0 != .unknown }) else {
            return nil
        }
        self = kind
    }
}

/// App lifecycle states (`lifecycle` events, `code` column).
public enum LifecycleState: UInt8, CaseIterable, Sendable, Codable {
    case notRunning = 0, inactive, active, background, suspended

    /// The spelling in a trace (`TraceLifecycleState`).
    public var traceName: String { "\(TraceLifecycleState(rawValue: rawValue)!.name)" }

    public init?(traceName: String) {
        guard let state = LifecycleState.allCases.first(where: { $0.traceName == traceName }) else { return nil }
        self = state
    }

    /// Whether the app counts as running in the background for the guidance rules.
    public var isBackground: Bool { self == .background || self == .suspended }
}

/// Direction of a `net` event (`code` column).
public enum NetDirection: UInt8, CaseIterable, Sendable, Codable {
    case tx = 0, rx

    /// The spelling in a trace (`TraceNetDirection`).
    public var traceName: String { "\(TraceNetDirection(rawValue: rawValue)!.name)" }

    public init?(traceName: String) {
        guard let direction = NetDirection.allCases.first(where: { $0.traceName == traceName }) else { return nil }
        self = direction
    }
}

/// The network interface kind of a `net` event (`code2` column).
public enum LinkKind: UInt8, CaseIterable, Sendable, Codable {
    /// Not stated by the input: pricing uses the device model's default link.
    case unspecified = 0
    case wifi, cellular, ethernet, loopback

    /// The spelling in a trace (`TraceNetInterface`), or `unspecified`.
    public var traceName: String { TraceNetInterface(rawValue: rawValue).map { "\($0.name)" } ?? "unspecified" }

    public init?(traceName: String) {
        guard let link = LinkKind.allCases.first(where: { $0.traceName == traceName && $0 != .unspecified }) else {
            return nil
        }
        self = link
    }
}

/// The operation of a `disk` event (`code` column).
public enum DiskOperation: UInt8, CaseIterable, Sendable, Codable {
    case write = 0, fsync, read, truncate

    /// The spelling in a trace (`TraceDiskOperation`).
    public var traceName: String { "\(TraceDiskOperation(rawValue: rawValue)!.name)" }

    public init?(traceName: String) {
        guard let op = DiskOperation.allCases.first(where: { $0.traceName == traceName }) else { return nil }
        self = op
    }
}

/// The action of `resource`, `background_task`, `sensor` and `location` events (`code` column).
///
/// Each event type spells the actions its own way: `resource` uses acquire/release,
/// `background_task` begin/end/expire, `sensor` and `location` start/stop.
public enum Action: UInt8, CaseIterable, Sendable, Codable {
    /// acquire, begin, start
    case start = 0
    /// release, end, stop
    case stop
    /// expire (background tasks that ran out of time)
    case expire

    public init?(traceName: String) {
        switch traceName {
        case "acquire", "begin", "start": self = .start
        case "release", "end", "stop": self = .stop
        case "expire": self = .expire
        default: return nil
        }
    }

    /// The spelling of this action for an event kind.
    public func traceName(for kind: EventKind) -> String {
        switch (self, kind) {
        case (.start, .resource): "acquire"
        case (.stop, .resource): "release"
        case (.start, .backgroundTask): "begin"
        case (.stop, .backgroundTask): "end"
        case (.expire, _): "expire"
        case (.start, _): "start"
        case (.stop, _): "stop"
        }
    }
}
