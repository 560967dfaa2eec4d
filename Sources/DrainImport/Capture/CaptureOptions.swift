import DrainTrace

/// How `CaptureImporter` reads a capture.
public struct CaptureOptions {
    /// The device's IPv4 or IPv6 address (`--device-ip`): packets from it are `tx`. `nil` finds
    /// the device side from the traffic (see `docs/captures.md`).
    public var deviceAddress: String?
    /// The interface kind of every packet (`--link`), overriding what the capture says.
    /// Loopback traffic stays loopback.
    public var link: LinkKind?
    /// Consecutive packets of one flow and direction closer than this are coalesced into one
    /// `net` event spanning them. Keep it below the shortest radio timer of the models (LTE's
    /// 100 ms inactivity timer, Wi-Fi's 250 ms tail) so that pricing is unchanged; 0 gives one
    /// event per packet.
    public var coalescing: Nanoseconds

    /// Told how many bytes of the file have been read, every few thousand packets.
    public var progress: ImportProgress?

    /// Whether libpcap reads on a thread of its own, a few megabytes ahead of the decoding
    /// (`PacketPipe`). The report is the same either way; tests choose to check that.
    enum ReadAhead {
        /// For a gzip-compressed capture and a capture of `readAheadMinimumBytes` or more,
        /// when the machine has two cores or more.
        case automatic
        case always
        case never
    }

    var readAhead = ReadAhead.automatic

    /// When the reading thread decodes packets too (`PacketPipe.DecodeOnRead`); the report is
    /// the same either way.
    var decodeOnRead = PacketPipe.DecodeOnRead.whenBehind

    /// Below this a capture is read on one thread: starting one costs more than it saves.
    static let readAheadMinimumBytes: Int64 = 4 << 20

    /// Whether `.automatic` reads ahead a capture of `size` bytes (`nil`: unknown), compressed
    /// or not: a gzip capture's size is not known up front, and inflating it makes reading
    /// ahead pay whatever its size; a plain one from `readAheadMinimumBytes` on. Only with two
    /// cores or more.
    static func readsAheadAutomatically(size: Int64?, compressed: Bool) -> Bool {
        ParallelWork.defaultThreads() > 1 && (compressed || (size ?? 0) >= readAheadMinimumBytes)
    }

    /// The default coalescing window: 10 ms.
    public static let defaultCoalescing: Nanoseconds = 10_000_000

    public init(
        deviceAddress: String? = nil, link: LinkKind? = nil, coalescing: Nanoseconds = defaultCoalescing,
        progress: ImportProgress? = nil
    ) {
        self.deviceAddress = deviceAddress
        self.link = link
        self.coalescing = coalescing
        self.progress = progress
    }

    /// Whether `text` is an address whose traffic stays on the local link — multicast,
    /// broadcast or link-local (GUIDANCE.md, *Local traffic*): reports mark such endpoints
    /// `local`, and it is never priced on a cellular radio.
    public static func isLocalAddress(_ text: String) -> Bool {
        IPAddress(text: text)?.isLocalOnly ?? false
    }

    /// Whether `text` is an IPv4 or IPv6 address that `deviceAddress` accepts (for validating
    /// the command line before importing).
    public static func isAddress(_ text: String) -> Bool {
        IPAddress(text: text) != nil
    }
}
