import DrainTraceWriter

// The enumerated values of the trace format (docs/trace-format.md), spelled once in
// DrainTraceWriter.

extension DrainProbe {
    /// The app's state, for `lifecycle` events.
    public typealias LifecycleState = TraceLifecycleState

    /// The direction of a `net` event: bytes sent (`tx`) or received (`rx`).
    public typealias NetDirection = TraceNetDirection

    /// The network interface of a `net` event. Leave it out (`nil`) when unknown: pricing
    /// then uses the device model's default link.
    public typealias NetInterface = TraceNetInterface

    /// The operation of a `disk` event.
    public typealias DiskOperation = TraceDiskOperation

    /// What a `resource` event does with the resource.
    public typealias ResourceAction = TraceResourceAction

    /// What a `background_task` event says about the task: it began, it ended, or the
    /// system expired it before it ended.
    public typealias BackgroundTaskAction = TraceBackgroundTaskAction

    /// Whether a `sensor` or `location` event starts or stops updates.
    public typealias UpdateAction = TraceUpdateAction
}
