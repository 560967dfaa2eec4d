import DrainTrace

/// One analysed input.
public struct ReportInput: Codable, Sendable, Equatable {
    public var path: String
    public var format: String
    public var events: Int?
    public var packets: Int?
    public var process: String?
    /// Seconds from the report's time zero to this input's time zero (inputs are aligned by
    /// wall clock).
    public var offsetS: Double
    /// For captures, where the packets' radio came from: `option` (`--link`), `interfaces`
    /// (pcapng interface names), `link_type` (802.11 framing) or `default` (the model's
    /// default link was assumed).
    public var linkSource: String?
    public var diagnostics: [ImportDiagnostic]

    public init(
        path: String, format: String, events: Int?, packets: Int?, process: String?, offsetS: Double,
        diagnostics: [ImportDiagnostic], linkSource: String? = nil
    ) {
        self.path = path
        self.format = format
        self.events = events
        self.packets = packets
        self.process = process
        self.offsetS = offsetS
        self.linkSource = linkSource
        self.diagnostics = diagnostics
    }

    enum CodingKeys: String, CodingKey {
        case diagnostics, events, format
        case linkSource = "link_source"
        case offsetS = "offset_s"
        case packets, path, process
    }
}
