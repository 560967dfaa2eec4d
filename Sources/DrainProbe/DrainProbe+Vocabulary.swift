// The enumerated values of the trace format (docs/trace-format.md), spelled as Swift
// cases; `traceName` is the spelling written to the file.

extension DrainProbe {
    /// The app's state, for `lifecycle` events.
    public enum LifecycleState: Sendable, CaseIterable {
        case notRunning, inactive, active, background, suspended

        var traceName: StaticString {
            switch self {
            case .notRunning: "not_running"
            case .inactive: "inactive"
            case .active: "active"
            case .background: "background"
            case .suspended: "suspended"
            }
        }
    }

    /// The direction of a `net` event: bytes sent (`tx`) or received (`rx`).
    public enum NetDirection: Sendable, CaseIterable {
        case tx, rx

        var traceName: StaticString { self == .tx ? "tx" : "rx" }
    }

    /// The network interface of a `net` event. Leave it out (`nil`) when unknown: pricing
    /// then uses the device model's default link.
    public enum NetInterface: Sendable, CaseIterable {
        case wifi, cellular, ethernet, loopback

        var traceName: StaticString {
            switch self {
            case .wifi: "wifi"
            case .cellular: "cellular"
            case .ethernet: "ethernet"
            case .loopback: "loopback"
            }
        }
    }

    /// The operation of a `disk` event.
    public enum DiskOperation: Sendable, CaseIterable {
        case write, fsync, read, truncate

        var traceName: StaticString {
            switch self {
            case .write: "write"
            case .fsync: "fsync"
            case .read: "read"
            case .truncate: "truncate"
            }
        }
    }

    /// What a `resource` event does with the resource.
    public enum ResourceAction: Sendable, CaseIterable {
        case acquire, release

        var traceName: StaticString { self == .acquire ? "acquire" : "release" }
    }

    /// What a `background_task` event says about the task: it began, it ended, or the
    /// system expired it before it ended.
    public enum BackgroundTaskAction: Sendable, CaseIterable {
        case begin, end, expire

        var traceName: StaticString {
            switch self {
            case .begin: "begin"
            case .end: "end"
            case .expire: "expire"
            }
        }
    }

    /// Whether a `sensor` or `location` event starts or stops updates.
    public enum UpdateAction: Sendable, CaseIterable {
        case start, stop

        var traceName: StaticString { self == .start ? "start" : "stop" }
    }
}
