/// Builds a timeline event by event with typed calls, in seconds. Used by rule example
/// scenarios, tests and generators; importers append `Event`s directly.
///
/// ```swift
/// var builder = TimelineBuilder()
/// builder.lifecycle(0, .active)
/// for i in 0..<20 { builder.poll(Double(i) * 0.1, source: "socket", interval: 0.1) }
/// let timeline = builder.build()
/// ```
public struct TimelineBuilder: Sendable {
    public private(set) var timeline = Timeline()
    private var diagnostics = ImportDiagnostics()

    public init(wallClockStart: Int64? = nil) {
        timeline.wallClockStart = wallClockStart
    }

    /// Sorts the events and returns the timeline. `end` (seconds), when given, extends the
    /// run past its last event.
    public func build(end: Double? = nil) -> Timeline {
        var result = timeline
        var diagnostics = diagnostics
        result.finish(diagnostics: &diagnostics)
        if let end { result.end = max(result.end, Clock.nanoseconds(end)) }
        return result
    }

    private mutating func id(_ string: String?) -> StringID {
        guard let string else { return 0 }
        return timeline.strings.intern(string)
    }

    private mutating func add(_ t: Double, _ kind: EventKind, thread: String?, configure: (inout Event) -> Void = { _ in }) {
        var event = Event(time: Clock.nanoseconds(t), kind: kind, thread: id(thread))
        configure(&event)
        timeline.append(event)
    }

    public mutating func lifecycle(_ t: Double, _ state: LifecycleState) {
        add(t, .lifecycle, thread: nil) { $0.code = state.rawValue }
    }

    public mutating func wakeup(_ t: Double, reason: String? = nil, source: String? = nil, thread: String? = nil) {
        let reasonID = id(reason), sourceID = id(source)
        add(t, .wakeup, thread: thread) { $0.label = reasonID; $0.label2 = sourceID }
    }

    public mutating func cpu(_ t: Double, duration: Double, name: String? = nil, thread: String? = nil) {
        let nameID = id(name)
        add(t, .cpu, thread: thread) { $0.duration = Clock.nanoseconds(duration); $0.label = nameID }
    }

    public mutating func timer(
        _ t: Double, name: String, interval: Double, tolerance: Double = 0, repeats: Bool = true, thread: String? = nil
    ) {
        let nameID = id(name)
        add(t, .timer, thread: thread) {
            $0.label = nameID
            $0.duration = Clock.nanoseconds(interval)
            $0.value = tolerance
            $0.code = repeats ? 1 : 0
        }
    }

    public mutating func poll(_ t: Double, source: String, interval: Double, thread: String? = nil) {
        let sourceID = id(source)
        add(t, .poll, thread: thread) { $0.label = sourceID; $0.duration = Clock.nanoseconds(interval) }
    }

    public mutating func net(
        _ t: Double, _ direction: NetDirection, bytes: Int64, host: String? = nil, link: LinkKind = .unspecified,
        connection: String? = nil, thread: String? = nil
    ) {
        let hostID = id(host), connID = id(connection)
        add(t, .net, thread: thread) {
            $0.code = direction.rawValue
            $0.code2 = link.rawValue
            $0.amount = bytes
            $0.label = hostID
            $0.label2 = connID
        }
    }

    public mutating func disk(
        _ t: Double, _ operation: DiskOperation, bytes: Int64 = 0, path: String? = nil, fileSize: Int64? = nil,
        thread: String? = nil
    ) {
        let pathID = id(path)
        add(t, .disk, thread: thread) {
            $0.code = operation.rawValue
            $0.amount = bytes
            $0.amount2 = fileSize ?? -1
            $0.label = pathID
        }
    }

    public mutating func memory(_ t: Double, footprint: Int64) {
        add(t, .memory, thread: nil) { $0.amount = footprint }
    }

    public mutating func memoryWarning(_ t: Double) {
        add(t, .memoryWarning, thread: nil)
    }

    public mutating func resource(_ t: Double, kind: String, _ action: Action, id resourceID: String? = nil) {
        let kindID = id(kind), resID = id(resourceID)
        add(t, .resource, thread: nil) { $0.code = action.rawValue; $0.label = kindID; $0.label2 = resID }
    }

    public mutating func backgroundTask(_ t: Double, _ action: Action, id taskID: String) {
        let taskIDValue = id(taskID)
        add(t, .backgroundTask, thread: nil) { $0.code = action.rawValue; $0.label2 = taskIDValue }
    }

    public mutating func gpu(_ t: Double, duration: Double, name: String? = nil, thread: String? = nil) {
        let nameID = id(name)
        add(t, .gpu, thread: thread) { $0.duration = Clock.nanoseconds(duration); $0.label = nameID }
    }

    public mutating func frame(_ t: Double, changed: Bool) {
        add(t, .frame, thread: "main") { $0.code = changed ? 1 : 0 }
    }

    public mutating func sensor(_ t: Double, kind: String, _ action: Action, rateHz: Double = 0) {
        let kindID = id(kind)
        add(t, .sensor, thread: nil) { $0.code = action.rawValue; $0.label = kindID; $0.value = rateHz }
    }

    public mutating func location(_ t: Double, _ action: Action, accuracyMeters: Double = 0, distanceFilterMeters: Double = 0) {
        add(t, .location, thread: nil) {
            $0.code = action.rawValue
            $0.value = accuracyMeters
            $0.value2 = distanceFilterMeters
        }
    }

    public mutating func idleTimer(_ t: Double, disabled: Bool) {
        add(t, .idleTimer, thread: nil) { $0.code = disabled ? 1 : 0 }
    }

    public mutating func mark(_ t: Double, name: String, duration: Double = 0, thread: String? = nil) {
        let nameID = id(name)
        add(t, .mark, thread: thread) { $0.label = nameID; $0.duration = Clock.nanoseconds(duration) }
    }
}
