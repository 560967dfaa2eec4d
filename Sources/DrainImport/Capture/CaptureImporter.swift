import CPcap
import DrainTrace

/// Reads pcap and pcapng captures through libpcap into a timeline of coalesced `net` events
/// and a flow table (`Timeline.flows`). See `docs/captures.md`.
///
/// One streaming pass in bounded memory: memory grows with flows, coalesced events, distinct
/// names and HTTP messages, never with packets; nothing is allocated per packet. A
/// gzip-compressed capture is decompressed as libpcap reads it.
///
/// One importer reads both formats; `Importers.all` lists it once per format (`pcap`,
/// `pcapng`), each recognising its own magic numbers.
public struct CaptureImporter: Sendable {
    /// The format whose files this entry recognises.
    public let format: InputFormat

    /// Classic pcap: libpcap's savefile format in all the variants libpcap reads.
    public static let pcap = CaptureImporter(format: .pcap)
    /// pcapng: files that start with a Section Header Block.
    public static let pcapng = CaptureImporter(format: .pcapng)

    private init(format: InputFormat) {
        self.format = format
    }

    /// Reads the capture at `path` as input number `inputIndex` of an analysis, decompressing
    /// it if it starts with gzip's magic bytes.
    ///
    /// `info.packets` is the number of packets libpcap returned. A file that libpcap stops
    /// reading part-way (damaged, cut short, or a pcapng interface libpcap cannot handle) is
    /// analysed up to that point, with an `error` diagnostic saying where and what was lost.
    ///
    /// - Throws: `.unreadable` if the file cannot be opened; `.badData` naming the file if
    ///   libpcap refuses it, its link type is not supported, `options.deviceAddress` is not
    ///   an address, or its gzip data is damaged (naming the compressed byte). O(packets), plus
    ///   O(events log events) for a capture out of time order.
    public static func read(path: String, inputIndex: UInt16, options: CaptureOptions = CaptureOptions()) throws(ImportError)
        -> ImportedInput
    {
        try read(path: path, compression: nil, inputIndex: inputIndex, options: options)
    }

    /// Reads the capture at `path`, stored as `compression` says (`nil`: as its first bytes say).
    static func read(
        path: String, compression: InputSource.Compression?, inputIndex: UInt16, options: CaptureOptions
    ) throws(ImportError) -> ImportedInput {
        var given: IPAddress?
        if let text = options.deviceAddress {
            guard let address = IPAddress(text: text) else {
                throw .badData(
                    path: path, location: nil,
                    reason: "the device address \(UntrustedText.quoted(text)) is not an IPv4 or IPv6 address")
            }
            given = address
        }
        let file = try CaptureFile(path: path, compression: compression)
        guard let link = LinkLayer(dataLinkType: file.dataLinkType) else {
            throw .badData(
                path: path, location: nil,
                reason: "\(LinkLayer.describe(dataLinkType: file.dataLinkType)) is not supported (supported: Ethernet, "
                    + "Linux cooked SLL and SLL2, raw IP, BSD loopback, PPP, 802.11 and radiotap, Apple PKTAP)")
        }
        var diagnostics = ImportDiagnostics()
        let interfaceLink = interfacesLink(file.interfaces, diagnostics: &diagnostics)
        var reader = CaptureReader(
            file: file, decoder: PacketDecoder(link: link),
            tracker: FlowTracker(
                coalescing: options.coalescing, linkOverride: options.link,
                captureLink: interfaceLink == .unspecified ? link.impliedLink : interfaceLink),
            progress: options.progress, readAhead: Self.readsAhead(file, options), decodeOnRead: options.decodeOnRead)
        try reader.run(diagnostics: &diagnostics)
        if let gzip = file.gzip {
            // Damaged compressed data is bad data, not a capture cut short.
            if let failure = gzip.failure { throw failure }
            gzip.gzip.recordCutOff(in: &diagnostics)
        }

        // Worked on in place: a copy would share, and then copy, every column it changes.
        reader.tracker.closeAll()
        reader.tracker.tally.record(into: &diagnostics)
        let device = DeviceSide(flows: reader.tracker.states, given: given)
        recordDevice(device, given: given, diagnostics: &diagnostics)

        var timeline = Timeline()
        let shift = reader.earliest.map { max(0, -$0) } ?? 0
        if let origin = reader.origin { timeline.wallClockStart = origin - shift }
        reader.tracker.write(into: &timeline, input: inputIndex, device: device, shift: shift)
        if let latest = reader.latest { timeline.end = max(timeline.end, latest + shift) }
        timeline.finish(diagnostics: &diagnostics)
        timeline.backwardJumps.add(reader.tracker.tally.backwardJumps)
        let linkSource =
            options.link != nil
            ? "option" : (interfaceLink != .unspecified ? "interfaces" : (link.impliedLink != .unspecified ? "link_type" : "default"))
        let info = InputInfo(
            path: path, format: file.format, packets: reader.packets, wallClockStart: timeline.wallClockStart,
            linkSource: linkSource, diagnostics: diagnostics)
        return ImportedInput(timeline: timeline, info: info)
    }

    /// Whether `file` is read ahead on a thread of its own (`CaptureOptions.readAhead`).
    private static func readsAhead(_ file: CaptureFile, _ options: CaptureOptions) -> Bool {
        switch options.readAhead {
        case .always: true
        case .never: false
        case .automatic: CaptureOptions.readsAheadAutomatically(size: file.size, compressed: file.gzip != nil)
        }
    }

    /// The link kind the pcapng interface names give every packet: theirs if they agree,
    /// else unspecified with a warning (libpcap does not say which interface a packet came from).
    private static func interfacesLink(_ interfaces: [PcapngInterface], diagnostics: inout ImportDiagnostics) -> LinkKind {
        let kinds = interfaces.map { LinkKind(interfaceName: Array(($0.name ?? "").utf8)) }
        guard let first = kinds.first else { return .unspecified }
        if kinds.allSatisfy({ $0 == first }) { return first }
        let listed = zip(interfaces, kinds).prefix(8).map { interface, kind in
            "\(interface.name.map { UntrustedText.quoted($0) } ?? "unnamed") (\(kind == .unspecified ? "unknown" : kind.traceName))"
        }
        diagnostics.record(
            .warning, code: "mixed-interfaces",
            message: "the capture's interfaces are of different kinds (\(listed.joined(separator: ", "))) and libpcap does not "
                + "say which interface each packet came from, so the model's default link applies; use --link to choose")
        return .unspecified
    }

    private static func recordDevice(_ device: DeviceSide, given: IPAddress?, diagnostics: inout ImportDiagnostics) {
        var parts: [String] = []
        if let address = device.ipv4 { parts.append("\(address.text) (\(device.ipv4Reason))") }
        if let address = device.ipv6 { parts.append("\(address.text) (\(device.ipv6Reason))") }
        if !parts.isEmpty {
            diagnostics.record(
                .info, code: "device-address",
                message: "packets from the device are tx: the device is \(parts.joined(separator: " and ")); --device-ip sets it")
        }
        if let given, !device.givenSeen {
            diagnostics.record(
                .warning, code: "device-address-not-seen",
                message: "the device address \(given.text) given by --device-ip is in no packet of this capture")
        }
    }
}
