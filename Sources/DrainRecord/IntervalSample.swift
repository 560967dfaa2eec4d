#if os(Linux)
import DrainTrace

/// What one sampling interval measured: the counter deltas that become trace events. The
/// sampler refills one value per interval, keeping the arrays' storage.
public struct IntervalSample: Sendable {
    /// CPU time and voluntary context switches of one thread in the interval.
    public struct ThreadActivity: Sendable, Equatable {
        public var thread: Int32
        /// The thread's command name (`comm`), as the kernel reports it.
        public var name: String
        public var cpu: Nanoseconds
        public var wakeups: Int64

        public init(thread: Int32, name: String, cpu: Nanoseconds, wakeups: Int64) {
            self.thread = thread
            self.name = name
            self.cpu = cpu
            self.wakeups = wakeups
        }
    }

    /// Growth of one process's `write_bytes` and `syscw` in the interval.
    public struct ProcessWrites: Sendable, Equatable {
        public var pid: Int32
        public var bytes: Int64
        public var calls: Int64

        public init(pid: Int32, bytes: Int64, calls: Int64) {
            self.pid = pid
            self.bytes = bytes
            self.calls = calls
        }
    }

    /// Bytes one network interface moved in the interval, system-wide.
    public struct InterfaceTraffic: Sendable, Equatable {
        public var name: String
        public var link: LinkKind
        public var received: Int64
        public var transmitted: Int64

        public init(name: String, link: LinkKind, received: Int64, transmitted: Int64) {
            self.name = name
            self.link = link
            self.received = received
            self.transmitted = transmitted
        }
    }

    /// The interval, nanoseconds since the trace's start.
    public var start: Nanoseconds
    public var end: Nanoseconds
    public var threads: [ThreadActivity] = []
    public var writes: [ProcessWrites] = []
    /// The sum of the processes' resident set sizes at `end`; nil when none reported one.
    public var residentBytes: Int64?
    public var interfaces: [InterfaceTraffic] = []

    public init(start: Nanoseconds, end: Nanoseconds) {
        self.start = start
        self.end = end
    }

    /// Empties the lists for the next interval, keeping their storage.
    mutating func reset(start: Nanoseconds, end: Nanoseconds) {
        self.start = start
        self.end = end
        threads.removeAll(keepingCapacity: true)
        writes.removeAll(keepingCapacity: true)
        interfaces.removeAll(keepingCapacity: true)
        residentBytes = nil
    }
}
#endif
