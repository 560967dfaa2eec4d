/// What an importer skipped, repaired or noticed, carried as data into the report.
///
/// Diagnostics are grouped by `code`: a million unknown-type lines make one diagnostic with
/// `count == 1_000_000` and the location of the first one, not a million entries.
public struct ImportDiagnostic: Sendable, Codable, Equatable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case info, warning, error

        private var order: Int { self == .info ? 0 : (self == .warning ? 1 : 2) }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.order < rhs.order }
    }

    /// How serious the loss is: `info` changes nothing, `warning` lost or repaired data,
    /// `error` stopped the import early (the report covers the data before it).
    public var severity: Severity
    /// A stable machine-readable code, e.g. `unknown-type`, `out-of-order`, `truncated`.
    public var code: String
    /// A sentence for people, about the first occurrence.
    public var message: String
    /// Where the first occurrence is: `line 12, column 5` or `byte 4096`.
    public var location: String?
    /// How many times it happened.
    public var count: Int

    enum CodingKeys: String, CodingKey {
        case code, count, location, message, severity
    }

    public init(severity: Severity, code: String, message: String, location: String? = nil, count: Int = 1) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.count = count
    }
}

/// Collects diagnostics for one input, grouping repeats by code.
public struct ImportDiagnostics: Sendable, Codable, Equatable {
    public private(set) var entries: [ImportDiagnostic] = []

    public init() {}

    /// Records one occurrence. Only the first occurrence of a code keeps its message and
    /// location; later ones only count. O(number of distinct codes).
    public mutating func record(
        _ severity: ImportDiagnostic.Severity, code: String, message: @autoclosure () -> String,
        location: @autoclosure () -> String? = nil, count: Int = 1
    ) {
        if let index = entries.firstIndex(where: { $0.code == code }) {
            entries[index].count += count
            if severity > entries[index].severity { entries[index].severity = severity }
        } else {
            entries.append(ImportDiagnostic(severity: severity, code: code, message: message(), location: location(), count: count))
        }
    }

    public var isEmpty: Bool { entries.isEmpty }
}

/// One input of an analysis: where it came from and what was read from it.
public struct InputInfo: Sendable, Codable, Equatable {
    /// The path as the user gave it.
    public var path: String
    /// The format name: `drain-trace`, `pcap`, `pcapng`, `strace`, `metrickit`, `chrome-trace`.
    public var format: String
    /// Events read (traces), or `nil` for captures.
    public var events: Int?
    /// Packets read (captures), or `nil` for traces.
    public var packets: Int?
    /// Wall-clock time of the input's time zero, in nanoseconds since the Unix epoch, if known.
    public var wallClockStart: Int64?
    /// The process named in the input's header, if any.
    public var process: String?
    /// The device model the input suggests (`device` in a Drain trace header), if any.
    public var deviceHint: String?
    /// For captures, where the radio of the packets came from: `option` (`--link`),
    /// `interfaces` (pcapng interface names), `link_type` (802.11 framing) or `default` (none
    /// of these: the model's default link).
    public var linkSource: String?
    public var diagnostics: ImportDiagnostics

    public init(
        path: String, format: String, events: Int? = nil, packets: Int? = nil, wallClockStart: Int64? = nil,
        process: String? = nil, deviceHint: String? = nil, linkSource: String? = nil, diagnostics: ImportDiagnostics = ImportDiagnostics()
    ) {
        self.path = path
        self.format = format
        self.events = events
        self.packets = packets
        self.wallClockStart = wallClockStart
        self.process = process
        self.deviceHint = deviceHint
        self.linkSource = linkSource
        self.diagnostics = diagnostics
    }
}
