/// A `net` event's `iface`. Left out when unknown: pricing then uses the device model's
/// default link. Raw values are DrainTrace's `LinkKind` codes (0 there is "unspecified").
public enum TraceNetInterface: UInt8, CaseIterable, Sendable {
    case wifi = 1, cellular, ethernet, loopback

    /// The spelling in a trace.
    @inlinable
    public var name: StaticString {
        switch self {
        case .wifi: "wifi"
        case .cellular: "cellular"
        case .ethernet: "ethernet"
        case .loopback: "loopback"
        }
    }
}
