import DrainTrace

/// Which radio carries the traffic of each link: `.wifi`, `.cellular`, or none (ethernet,
/// loopback), an unstated link going to the model's default radio. One byte, read inline: for
/// walks over many `net` rows, where asking a `DeviceRadios` in a call of its own copied the
/// whole struct (its model and state machines) into every call.
public struct RadioLinks: Sendable {
    @usableFromInline let defaultRadio: LinkKind

    public init(radio: DeviceModel.Radio) {
        defaultRadio = radio.defaultLink == .wifi ? .wifi : .cellular
    }

    /// The radio that carries traffic of `link`, or `nil` for links without one. O(1).
    @inlinable
    public func radio(for link: LinkKind) -> LinkKind? {
        switch link {
        case .wifi: .wifi
        case .cellular: .cellular
        case .unspecified: defaultRadio
        case .ethernet, .loopback: nil
        }
    }

    /// The radio of a `net` row whose `code2` is `code` (its link; an unknown code read as an
    /// unstated link). O(1).
    @inlinable
    public func radio(forCode code: UInt8) -> LinkKind? {
        radio(for: LinkKind(rawValue: code) ?? .unspecified)
    }
}
