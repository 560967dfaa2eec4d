/// Network traffic whose link no input stated (no interface name, no `--link`, no `iface`),
/// priced on the device model's default link: the report says so, and how to change it.
public struct AssumedLink: Codable, Sendable, Equatable {
    /// `cellular` or `wifi`: the model's default link.
    public var link: String
    /// The cellular technology (`LTE`, `3G UMTS`, `5G NSA`) when the link is cellular.
    public var technology: String?
    /// Bytes priced on the assumed link.
    public var bytes: Int64

    public init(link: String, technology: String?, bytes: Int64) {
        self.link = link
        self.technology = technology
        self.bytes = bytes
    }

    /// `priced as cellular (LTE), the model's default: pass --link wifi if this was Wi-Fi`.
    public var statement: String {
        link == "wifi"
            ? "priced as Wi-Fi, the model's default: pass --link cellular if this was cellular"
            : "priced as cellular\(technology.map { " (\($0))" } ?? ""), the model's default: pass --link wifi if this was Wi-Fi"
    }
}
