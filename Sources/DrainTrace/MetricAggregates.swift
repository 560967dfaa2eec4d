/// The aggregate metrics of one or more MetricKit payloads (`MXMetricPayload`,
/// `MXDiagnosticPayload` or bare diagnostics): totals over a window, not a timeline.
///
/// Every measurement is optional: `nil` means the payloads did not report it, which is not
/// the same as zero. Units are machine units: seconds, bytes, counts. The strings in
/// `metadata` and the diagnostics come from the input and are untrusted; renderers escape
/// them. The JSON form (snake_case keys) is the report's `metrickit` section.
public struct MetricAggregates: Sendable, Codable, Equatable {
    /// How many metric payloads and diagnostic payloads (a bare diagnostic counts as one) were read.
    public var metricPayloads = 0
    public var diagnosticPayloads = 0
    /// The earliest `timeStampBegin` and latest `timeStampEnd`, nanoseconds since the Unix epoch.
    public var windowStart: Int64?
    public var windowEnd: Int64?
    /// The summed window lengths of the metric payloads, seconds: the time the cumulative
    /// metrics below were collected over (payload windows do not overlap).
    public var metricSeconds: Double?

    public var metadata = Metadata()

    public var cpuTimeS: Double?
    public var cpuInstructions: Double?
    public var gpuTimeS: Double?
    public var foregroundTimeS: Double?
    public var backgroundTimeS: Double?
    public var backgroundAudioTimeS: Double?
    public var backgroundLocationTimeS: Double?
    public var wifiUpBytes: Double?
    public var wifiDownBytes: Double?
    public var cellularUpBytes: Double?
    public var cellularDownBytes: Double?
    public var logicalWriteBytes: Double?
    public var peakMemoryBytes: Double?
    public var averageSuspendedMemoryBytes: Double?
    /// The samples behind `averageSuspendedMemoryBytes`, which weight it when payloads combine.
    public var suspendedMemorySamples: Int?

    /// Time-to-first-draw, resume and hang histograms (`histogrammedTimeToFirstDrawKey`,
    /// `histogrammedResumeTime`, `histogrammedAppHangTime`).
    public var launchTime: Histogram?
    public var resumeTime: Histogram?
    public var hangTime: Histogram?

    /// App exits by reason (`applicationExitMetrics`), in the order first seen.
    public var exits: [ExitCount] = []

    public var hangs: [Hang] = []
    public var cpuExceptions: [CPUException] = []
    public var diskWriteExceptions: [DiskWriteException] = []
    public var crashes: [Crash] = []
    public var launches: [Launch] = []

    public init() {}

    /// Bytes sent and received over any radio, when any transfer was reported.
    public var transferBytes: Double? {
        let parts = [wifiUpBytes, wifiDownBytes, cellularUpBytes, cellularDownBytes].compactMap { $0 }
        return parts.isEmpty ? nil : parts.reduce(0, +)
    }

    /// Bytes sent and received over cellular, when either was reported.
    public var cellularBytes: Double? {
        cellularUpBytes == nil && cellularDownBytes == nil ? nil : (cellularUpBytes ?? 0) + (cellularDownBytes ?? 0)
    }

    /// The exit count for `reason`, or nil when no payload reported that reason.
    public func exits(_ reason: String) -> ExitCount? {
        exits.first { $0.reason == reason }
    }

    /// App, OS and device as the payloads name them; the first payload that names each wins.
    public struct Metadata: Sendable, Codable, Equatable {
        public var appVersion: String?
        public var appBuildVersion: String?
        public var bundleIdentifier: String?
        public var osVersion: String?
        public var deviceType: String?
        public var platformArchitecture: String?
        public var regionFormat: String?

        public init() {}

        /// Every named field as (key, value), in a fixed order, for renderers.
        public var fields: [(name: String, value: String)] {
            [
                ("app_version", appVersion), ("app_build_version", appBuildVersion),
                ("bundle_identifier", bundleIdentifier), ("os_version", osVersion), ("device_type", deviceType),
                ("platform_architecture", platformArchitecture), ("region_format", regionFormat),
            ].compactMap { name, value in value.map { (name, $0) } }
        }

        enum CodingKeys: String, CodingKey {
            case appBuildVersion = "app_build_version"
            case appVersion = "app_version"
            case bundleIdentifier = "bundle_identifier"
            case deviceType = "device_type"
            case osVersion = "os_version"
            case platformArchitecture = "platform_architecture"
            case regionFormat = "region_format"
        }
    }

    /// A histogram of durations: each bucket's bounds in seconds and its count.
    public struct Histogram: Sendable, Codable, Equatable {
        public var buckets: [Bucket]

        public init(buckets: [Bucket]) {
            self.buckets = buckets
        }

        /// How many samples the buckets hold.
        public var count: Int { buckets.reduce(0) { $0 + $1.count } }

        /// The upper bound of the highest bucket holding a sample, or nil when all are empty.
        public var maximumS: Double? { buckets.filter { $0.count > 0 }.map(\.endS).max() }

        /// Samples in buckets that start at or above `seconds` (they certainly exceed it).
        public func count(atLeast seconds: Double) -> Int {
            buckets.reduce(0) { $0 + ($1.startS >= seconds ? $1.count : 0) }
        }

        public struct Bucket: Sendable, Codable, Equatable {
            public var startS: Double
            public var endS: Double
            public var count: Int

            public init(startS: Double, endS: Double, count: Int) {
                self.startS = startS
                self.endS = endS
                self.count = count
            }

            enum CodingKeys: String, CodingKey {
                case count
                case endS = "end_s"
                case startS = "start_s"
            }
        }
    }

    /// Exits for one reason (`Normal`, `MemoryResourceLimit`, `AppWatchdog`…), as the payload
    /// spells it without `cumulative` and `ExitCount`.
    public struct ExitCount: Sendable, Codable, Equatable {
        public var reason: String
        public var foreground: Int?
        public var background: Int?

        enum CodingKeys: String, CodingKey {
            case background, foreground, reason
        }

        public init(reason: String, foreground: Int? = nil, background: Int? = nil) {
            self.reason = reason
            self.foreground = foreground
            self.background = background
        }

        public var total: Int { (foreground ?? 0) + (background ?? 0) }
    }

    /// An `MXHangDiagnostic`: the main thread did not respond for `durationS`.
    public struct Hang: Sendable, Codable, Equatable {
        public var durationS: Double?

        public init(durationS: Double?) {
            self.durationS = durationS
        }

        enum CodingKeys: String, CodingKey { case durationS = "duration_s" }
    }

    /// An `MXCPUExceptionDiagnostic`: the app used `totalCPUTimeS` of CPU within `totalSampledTimeS`.
    public struct CPUException: Sendable, Codable, Equatable {
        public var totalCPUTimeS: Double?
        public var totalSampledTimeS: Double?

        public init(totalCPUTimeS: Double?, totalSampledTimeS: Double?) {
            self.totalCPUTimeS = totalCPUTimeS
            self.totalSampledTimeS = totalSampledTimeS
        }

        enum CodingKeys: String, CodingKey {
            case totalCPUTimeS = "total_cpu_time_s"
            case totalSampledTimeS = "total_sampled_time_s"
        }
    }

    /// An `MXDiskWriteExceptionDiagnostic`: the app wrote `writesCausedBytes`, past the system's limit.
    public struct DiskWriteException: Sendable, Codable, Equatable {
        public var writesCausedBytes: Double?

        public init(writesCausedBytes: Double?) {
            self.writesCausedBytes = writesCausedBytes
        }

        enum CodingKeys: String, CodingKey { case writesCausedBytes = "writes_caused_bytes" }
    }

    /// An `MXCrashDiagnostic`: Mach exception type and code, signal, termination reason.
    public struct Crash: Sendable, Codable, Equatable {
        public var exceptionType: Int?
        public var exceptionCode: Int?
        public var signal: Int?
        public var terminationReason: String?

        public init(exceptionType: Int? = nil, exceptionCode: Int? = nil, signal: Int? = nil, terminationReason: String? = nil) {
            self.exceptionType = exceptionType
            self.exceptionCode = exceptionCode
            self.signal = signal
            self.terminationReason = terminationReason
        }

        enum CodingKeys: String, CodingKey {
            case exceptionCode = "exception_code"
            case exceptionType = "exception_type"
            case signal
            case terminationReason = "termination_reason"
        }
    }

    /// An `MXAppLaunchDiagnostic`: a launch that took `durationS`.
    public struct Launch: Sendable, Codable, Equatable {
        public var durationS: Double?

        public init(durationS: Double?) {
            self.durationS = durationS
        }

        enum CodingKeys: String, CodingKey { case durationS = "duration_s" }
    }

    enum CodingKeys: String, CodingKey {
        case averageSuspendedMemoryBytes = "average_suspended_memory_bytes"
        case backgroundAudioTimeS = "background_audio_time_s"
        case backgroundLocationTimeS = "background_location_time_s"
        case backgroundTimeS = "background_time_s"
        case cellularDownBytes = "cellular_down_bytes"
        case cellularUpBytes = "cellular_up_bytes"
        case cpuExceptions = "cpu_exceptions"
        case cpuInstructions = "cpu_instructions"
        case cpuTimeS = "cpu_time_s"
        case crashes
        case diagnosticPayloads = "diagnostic_payloads"
        case diskWriteExceptions = "disk_write_exceptions"
        case exits
        case foregroundTimeS = "foreground_time_s"
        case gpuTimeS = "gpu_time_s"
        case hangTime = "hang_time"
        case hangs
        case launchTime = "launch_time"
        case launches
        case logicalWriteBytes = "logical_write_bytes"
        case metadata
        case metricPayloads = "metric_payloads"
        case metricSeconds = "metric_s"
        case peakMemoryBytes = "peak_memory_bytes"
        case resumeTime = "resume_time"
        case suspendedMemorySamples = "suspended_memory_samples"
        case wifiDownBytes = "wifi_down_bytes"
        case wifiUpBytes = "wifi_up_bytes"
        case windowEnd = "window_end_ns"
        case windowStart = "window_start_ns"
    }
}
