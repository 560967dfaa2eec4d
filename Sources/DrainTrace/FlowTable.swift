/// The network flows of the captures on a timeline, one row per flow, stored column by column.
///
/// A flow is one transport conversation: a TCP connection, a UDP 5-tuple, or the packets of
/// another IP protocol between two addresses. Its two sides are the *device* (the capturing
/// phone or computer, see `docs/captures.md` for how it is found) and the *remote*; "up" is
/// device → remote and "down" remote → device. The `net` events of a flow carry its
/// `connection` label in `label2`, so a rule can go from an event to its flow through
/// `index(ofConnection:)`.
///
/// Times are on the timeline's clock. A time that never happened (no FIN, no data) is
/// `FlowTable.never`. Strings are ids of the timeline's `strings`.
///
/// The HTTP/1.x messages seen on the flows that NET-UNCOMPRESSED can read are in `http`.
public struct FlowTable: Sendable {
    /// The value of a time column for something that did not happen.
    public static let never: Nanoseconds = .min

    /// Which side of a flow did something.
    public enum Side: UInt8, Sendable, Codable {
        case none = 0, device, remote
    }

    /// What was recognised on a flow.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// A TCP SYN without ACK was seen: the capture holds the connection's opening.
        public static let syn = Flags(rawValue: 1 << 0)
        /// A TCP SYN+ACK was seen.
        public static let synAck = Flags(rawValue: 1 << 1)
        /// A TLS handshake record was seen (ClientHello or ServerHello): the payload is encrypted.
        public static let tls = Flags(rawValue: 1 << 2)
        /// A plain HTTP/1.x message head was seen.
        public static let http = Flags(rawValue: 1 << 3)
        /// QUIC long-header packets on UDP port 443, or a QUIC or Google QUIC client hello on
        /// any port, were seen: the payload is encrypted.
        public static let quic = Flags(rawValue: 1 << 4)
        /// DNS traffic (UDP or TCP port 53).
        public static let dns = Flags(rawValue: 1 << 5)
        /// The device opened the flow (sent the SYN, or the first packet when there is no SYN).
        public static let deviceOpened = Flags(rawValue: 1 << 6)
        /// The flow stays on the local link (multicast, broadcast or link-local, by address or
        /// by link-layer destination): never priced on a cellular radio.
        public static let local = Flags(rawValue: 1 << 7)
    }

    /// One flow as a value, for appending and reading.
    public struct Flow: Sendable, Equatable {
        public var input: UInt16 = 0
        public var transport: UInt8 = 0
        public var link: LinkKind = .unspecified
        public var endpoint: StringID = 0
        public var connection: StringID = 0
        public var remotePort: UInt16 = 0
        public var firstTime: Nanoseconds = 0
        public var lastTime: Nanoseconds = 0
        public var firstDataTime: Nanoseconds = FlowTable.never
        public var lastDataTime: Nanoseconds = FlowTable.never
        public var bytesUp: Int64 = 0
        public var bytesDown: Int64 = 0
        public var payloadUp: Int64 = 0
        public var payloadDown: Int64 = 0
        public var packetsUp: UInt32 = 0
        public var packetsDown: UInt32 = 0
        public var setupBytes: Int64 = 0
        public var dataSegments: UInt32 = 0
        public var retransmits: UInt32 = 0
        public var finTime: Nanoseconds = FlowTable.never
        public var finBy: Side = .none
        public var rstTime: Nanoseconds = FlowTable.never
        public var rstBy: Side = .none
        public var flags: Flags = []
        public var exchanges: UInt32 = 0
        public var smallExchanges: UInt32 = 0
        public var exchangePayload: Int64 = 0
        public var exchangeWait: Nanoseconds = 0
        public var firstExchangeTime: Nanoseconds = FlowTable.never
        public var lastExchangeTime: Nanoseconds = FlowTable.never

        public init() {}
    }

    /// Which input of the analysis the flow came from (the timeline's `input` numbering).
    public private(set) var input: [UInt16] = []
    /// IP protocol number: 6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6…
    public private(set) var transport: [UInt8] = []
    /// The interface kind the flow's packets went over (the `code2` of its `net` events).
    public private(set) var link: [LinkKind] = []
    /// Who the device talked to: the TLS server name (SNI), else the HTTP `Host`, else the DNS
    /// name the capture resolved the remote address from, else the remote address as text.
    /// Untrusted text from the capture.
    public private(set) var endpoint: [StringID] = []
    /// The flow in one line, unique per flow of an input: `tcp 192.168.1.2:50000 → 93.184.216.34:443`
    /// (device side first). The `label2` of the flow's `net` events.
    public private(set) var connection: [StringID] = []
    /// The remote port (0 without ports).
    public private(set) var remotePort: [UInt16] = []
    /// Time of the first and of the last packet.
    public private(set) var firstTime: [Nanoseconds] = []
    public private(set) var lastTime: [Nanoseconds] = []
    /// Time of the first and of the last packet carrying transport payload (not counting
    /// retransmissions), or `never`.
    public private(set) var firstDataTime: [Nanoseconds] = []
    public private(set) var lastDataTime: [Nanoseconds] = []
    /// Frame bytes device → remote and remote → device (what the `net` events sum).
    public private(set) var bytesUp: [Int64] = []
    public private(set) var bytesDown: [Int64] = []
    /// Transport payload bytes (TCP or UDP data, retransmissions included) each way.
    public private(set) var payloadUp: [Int64] = []
    public private(set) var payloadDown: [Int64] = []
    /// Packets each way.
    public private(set) var packetsUp: [UInt32] = []
    public private(set) var packetsDown: [UInt32] = []
    /// Frame bytes both ways before the first payload: the TCP handshake of a connection.
    public private(set) var setupBytes: [Int64] = []
    /// Packets carrying payload, both ways (TCP data segments, UDP datagrams with data).
    public private(set) var dataSegments: [UInt32] = []
    /// TCP data segments whose sequence range ends at or before the highest one already seen
    /// in their direction: retransmissions (and reordered segments, which a capture cannot
    /// tell apart). Keep-alive probes are not counted.
    public private(set) var retransmits: [UInt32] = []
    /// Time of the first FIN and who sent it, or `never` and `.none`.
    public private(set) var finTime: [Nanoseconds] = []
    public private(set) var finBy: [Side] = []
    /// Time of the first RST and who sent it, or `never` and `.none`.
    public private(set) var rstTime: [Nanoseconds] = []
    public private(set) var rstBy: [Side] = []
    public private(set) var flags: [Flags] = []
    /// Request/response exchanges: a run of device → remote payload followed by a run of
    /// remote → device payload. Counted when the response run ends.
    public private(set) var exchanges: [UInt32] = []
    /// Exchanges whose request and response both carried less than 1 KB (1000 bytes) of payload.
    public private(set) var smallExchanges: [UInt32] = []
    /// Payload bytes of all exchanges, both ways.
    public private(set) var exchangePayload: [Int64] = []
    /// Time spent waiting for responses: the sum, over exchanges, of the gap between the end
    /// of the request and the start of the response (round trips plus server time).
    public private(set) var exchangeWait: [Nanoseconds] = []
    /// Start of the first exchange's request and end of the last exchange's response, or `never`.
    public private(set) var firstExchangeTime: [Nanoseconds] = []
    public private(set) var lastExchangeTime: [Nanoseconds] = []

    /// The HTTP/1.x message heads seen on these flows.
    public var http = HTTPMessageTable()

    public init() {}

    /// The number of flows. O(1).
    public var count: Int { input.count }
    public var isEmpty: Bool { input.isEmpty }

    /// Makes room for `count` flows in all, so that appending them allocates each column once,
    /// at its size (a long capture has tens of thousands of flows; growth would leave up to
    /// half of each column's room unused). O(count).
    public mutating func reserveCapacity(_ count: Int) {
        input.reserveCapacity(count)
        transport.reserveCapacity(count)
        link.reserveCapacity(count)
        endpoint.reserveCapacity(count)
        connection.reserveCapacity(count)
        remotePort.reserveCapacity(count)
        firstTime.reserveCapacity(count)
        lastTime.reserveCapacity(count)
        firstDataTime.reserveCapacity(count)
        lastDataTime.reserveCapacity(count)
        bytesUp.reserveCapacity(count)
        bytesDown.reserveCapacity(count)
        payloadUp.reserveCapacity(count)
        payloadDown.reserveCapacity(count)
        packetsUp.reserveCapacity(count)
        packetsDown.reserveCapacity(count)
        setupBytes.reserveCapacity(count)
        dataSegments.reserveCapacity(count)
        retransmits.reserveCapacity(count)
        finTime.reserveCapacity(count)
        finBy.reserveCapacity(count)
        rstTime.reserveCapacity(count)
        rstBy.reserveCapacity(count)
        flags.reserveCapacity(count)
        exchanges.reserveCapacity(count)
        smallExchanges.reserveCapacity(count)
        exchangePayload.reserveCapacity(count)
        exchangeWait.reserveCapacity(count)
        firstExchangeTime.reserveCapacity(count)
        lastExchangeTime.reserveCapacity(count)
    }

    /// Appends a flow and returns its index. Amortised O(1).
    @discardableResult
    public mutating func append(_ flow: Flow) -> Int {
        input.append(flow.input)
        transport.append(flow.transport)
        link.append(flow.link)
        endpoint.append(flow.endpoint)
        connection.append(flow.connection)
        remotePort.append(flow.remotePort)
        firstTime.append(flow.firstTime)
        lastTime.append(flow.lastTime)
        firstDataTime.append(flow.firstDataTime)
        lastDataTime.append(flow.lastDataTime)
        bytesUp.append(flow.bytesUp)
        bytesDown.append(flow.bytesDown)
        payloadUp.append(flow.payloadUp)
        payloadDown.append(flow.payloadDown)
        packetsUp.append(flow.packetsUp)
        packetsDown.append(flow.packetsDown)
        setupBytes.append(flow.setupBytes)
        dataSegments.append(flow.dataSegments)
        retransmits.append(flow.retransmits)
        finTime.append(flow.finTime)
        finBy.append(flow.finBy)
        rstTime.append(flow.rstTime)
        rstBy.append(flow.rstBy)
        flags.append(flow.flags)
        exchanges.append(flow.exchanges)
        smallExchanges.append(flow.smallExchanges)
        exchangePayload.append(flow.exchangePayload)
        exchangeWait.append(flow.exchangeWait)
        firstExchangeTime.append(flow.firstExchangeTime)
        lastExchangeTime.append(flow.lastExchangeTime)
        return input.count - 1
    }

    /// The flow at `index` as a value. O(1).
    public subscript(index: Int) -> Flow {
        var flow = Flow()
        flow.input = input[index]
        flow.transport = transport[index]
        flow.link = link[index]
        flow.endpoint = endpoint[index]
        flow.connection = connection[index]
        flow.remotePort = remotePort[index]
        flow.firstTime = firstTime[index]
        flow.lastTime = lastTime[index]
        flow.firstDataTime = firstDataTime[index]
        flow.lastDataTime = lastDataTime[index]
        flow.bytesUp = bytesUp[index]
        flow.bytesDown = bytesDown[index]
        flow.payloadUp = payloadUp[index]
        flow.payloadDown = payloadDown[index]
        flow.packetsUp = packetsUp[index]
        flow.packetsDown = packetsDown[index]
        flow.setupBytes = setupBytes[index]
        flow.dataSegments = dataSegments[index]
        flow.retransmits = retransmits[index]
        flow.finTime = finTime[index]
        flow.finBy = finBy[index]
        flow.rstTime = rstTime[index]
        flow.rstBy = rstBy[index]
        flow.flags = flags[index]
        flow.exchanges = exchanges[index]
        flow.smallExchanges = smallExchanges[index]
        flow.exchangePayload = exchangePayload[index]
        flow.exchangeWait = exchangeWait[index]
        flow.firstExchangeTime = firstExchangeTime[index]
        flow.lastExchangeTime = lastExchangeTime[index]
        return flow
    }

    /// The flow whose `connection` label is `id` (the `label2` of a `net` event), searching
    /// flows of `input` only. O(flows); build a dictionary over `connection` for many lookups.
    public func index(ofConnection id: StringID, input inputIndex: UInt16) -> Int? {
        guard id != 0 else { return nil }
        return connection.indices.first { connection[$0] == id && input[$0] == inputIndex }
    }

    /// Appends the flows and HTTP messages of another table, moving their times by `shift`
    /// nanoseconds (a `never` stays `never`), mapping their string ids through `strings`
    /// (old id → new id) and tagging them with `input`. O(flows + messages).
    public mutating func append(
        contentsOf other: FlowTable, shift: Nanoseconds, strings: [StringID], input newInput: UInt16
    ) {
        let base = UInt32(truncatingIfNeeded: count)
        func moved(_ time: Nanoseconds) -> Nanoseconds { time == Self.never ? time : time + shift }
        for index in 0..<other.count {
            var flow = other[index]
            flow.input = newInput
            flow.endpoint = strings[Int(flow.endpoint)]
            flow.connection = strings[Int(flow.connection)]
            flow.firstTime = moved(flow.firstTime)
            flow.lastTime = moved(flow.lastTime)
            flow.firstDataTime = moved(flow.firstDataTime)
            flow.lastDataTime = moved(flow.lastDataTime)
            flow.finTime = moved(flow.finTime)
            flow.rstTime = moved(flow.rstTime)
            flow.firstExchangeTime = moved(flow.firstExchangeTime)
            flow.lastExchangeTime = moved(flow.lastExchangeTime)
            append(flow)
        }
        http.append(contentsOf: other.http, flowOffset: base, shift: shift, strings: strings)
    }

    /// Tags every flow with `index` as its input. O(flows).
    public mutating func setInput(_ index: UInt16) {
        for row in input.indices { input[row] = index }
    }
}
