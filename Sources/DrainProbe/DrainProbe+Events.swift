import DrainTraceWriter

// Events that happen at one moment: stamped with the time of the call and the calling
// thread. Strings are written exactly as given (escaped for JSON); sizes below zero are
// written as 0, since the format has no negative sizes.

extension DrainProbe {
    /// A `lifecycle` event: the app entered `state`.
    public func lifecycle(_ state: LifecycleState) {
        writer.record(bound: TraceWriter.fixedBound) { line in
            line.type(.lifecycle)
            line.field(.state, state.name)
        }
    }

    /// A `wakeup` event: the thread woke up, e.g. `reason: "timer"`, `source: "sync"`.
    public func wakeup(reason: String? = nil, source: String? = nil) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: reason) + JSONFormatter.bound(of: source)) { line in
            line.type(.wakeup)
            line.field(.reason, reason)
            line.field(.source, source)
        }
    }

    /// A `timer` event: a timer was scheduled to fire every `interval` (once, if
    /// `repeats` is false) with `tolerance` leeway.
    public func timer(_ name: String? = nil, interval: Duration, tolerance: Duration = .zero, repeats: Bool = true) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: name)) { line in
            line.type(.timer)
            line.seconds(.interval, interval.traceNanoseconds)
            line.seconds(.tolerance, tolerance.traceNanoseconds)
            line.boolean(.repeats, repeats)
            line.field(.name, name)
        }
    }

    /// A `poll` event: the code checks `source` every `interval` instead of waiting to be
    /// told.
    public func poll(_ source: String? = nil, interval: Duration) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: source)) { line in
            line.type(.poll)
            line.seconds(.interval, interval.traceNanoseconds)
            line.field(.source, source)
        }
    }

    /// A `net` event: `bytes` sent (`.tx`) or received (`.rx`).
    ///
    /// - Parameters:
    ///   - host: the peer, e.g. `api.example.com`.
    ///   - interface: the link; `nil` leaves it to the device model's default link.
    ///   - connection: an id grouping the events of one connection.
    public func net(_ direction: NetDirection, bytes: Int, host: String? = nil, interface: NetInterface? = nil, connection: String? = nil) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: host) + JSONFormatter.bound(of: connection)) { line in
            line.type(.net)
            line.field(.dir, direction.name)
            line.integer(.bytes, Int64(max(0, bytes)))
            line.field(.host, host)
            if let interface { line.field(.iface, interface.name) }
            line.field(.conn, connection)
        }
    }

    /// A `disk` event.
    ///
    /// - Parameters:
    ///   - bytes: bytes written or read (0 for `fsync`).
    ///   - path: the file, e.g. `Library/Caches/state.json`.
    ///   - fileSize: the file's size after the operation; `nil` if unknown.
    public func disk(_ operation: DiskOperation, bytes: Int = 0, path: String? = nil, fileSize: Int? = nil) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: path)) { line in
            line.type(.disk)
            line.field(.op, operation.name)
            line.integer(.bytes, Int64(max(0, bytes)))
            line.field(.path, path)
            if let fileSize, fileSize >= 0 { line.integer(.fileSize, Int64(fileSize)) }
        }
    }

    /// A `memory` event with a footprint the app measured itself (the background sampler
    /// and `sampleMemory()` record the system's figure). Written without a thread: a
    /// footprint belongs to the whole process.
    public func memory(footprint: Int) {
        writer.recordMemory(footprint: footprint)
    }

    /// A `memory_warning` event: the system asked the app to free memory.
    public func memoryWarning() {
        writer.record(bound: TraceWriter.fixedBound) { line in
            line.type(.memoryWarning)
        }
    }

    /// A `resource` event: the app acquired or released a resource of `kind` (e.g.
    /// `camera`, `socket_listener`, `database`); `id` tells instances apart.
    public func resource(_ kind: String, _ action: ResourceAction, id: String? = nil) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: kind) + JSONFormatter.bound(of: id)) { line in
            line.type(.resource)
            line.field(.action, action.name)
            line.field(.kind, kind)
            line.field(.id, id)
        }
    }

    /// A `background_task` event: a task that asked for background running time began,
    /// ended, or was expired by the system; `id` pairs a begin with its end.
    public func backgroundTask(_ action: BackgroundTaskAction, id: String? = nil) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: id)) { line in
            line.type(.backgroundTask)
            line.field(.action, action.name)
            line.field(.id, id)
        }
    }

    /// A `frame` event: a frame was drawn; `changed` says whether its content differs from
    /// the previous frame.
    public func frame(changed: Bool) {
        writer.record(bound: TraceWriter.fixedBound) { line in
            line.type(.frame)
            line.boolean(.changed, changed)
        }
    }

    /// A `sensor` event: updates from the sensor `kind` (e.g. `accelerometer`, `gyro`)
    /// started or stopped. `rateHz` is written when it is a positive finite number (0, the
    /// default, means not stated).
    public func sensor(_ kind: String, _ action: UpdateAction, rateHz: Double = 0) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: kind)) { line in
            line.type(.sensor)
            line.field(.action, action.name)
            line.field(.kind, kind)
            if rateHz.isFinite && rateHz > 0 {
                line.key(.rateHz)
                line.real(rateHz)
            }
        }
    }

    /// A `location` event: location updates started or stopped, with the requested
    /// accuracy and distance filter in metres as Core Location states them (its "best"
    /// accuracies are −1 and −2, no filter is −1; 0, the default, means the same to
    /// Drain). Values that are 0 or not finite are left out.
    public func location(_ action: UpdateAction, accuracyMeters: Double = 0, distanceFilterMeters: Double = 0) {
        writer.record(bound: TraceWriter.fixedBound) { line in
            line.type(.location)
            line.field(.action, action.name)
            if accuracyMeters.isFinite && accuracyMeters != 0 {
                line.key(.accuracyM)
                line.real(accuracyMeters)
            }
            if distanceFilterMeters.isFinite && distanceFilterMeters != 0 {
                line.key(.distanceFilterM)
                line.real(distanceFilterMeters)
            }
        }
    }

    /// An `idle_timer` event: the app disabled (or re-enabled) the screen's idle timer.
    public func idleTimer(disabled: Bool) {
        writer.record(bound: TraceWriter.fixedBound) { line in
            line.type(.idleTimer)
            line.boolean(.disabled, disabled)
        }
    }

    /// A `mark` event at this moment: a named point the app wants to see on the timeline.
    public func mark(_ name: String) {
        writer.record(bound: TraceWriter.fixedBound + JSONFormatter.bound(of: name)) { line in
            line.type(.mark)
            line.field(.name, name)
        }
    }
}
