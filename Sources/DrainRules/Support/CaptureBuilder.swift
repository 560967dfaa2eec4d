import DrainTrace

/// Builds a small capture-like run in code, for rule examples and tests: `net` events labelled
/// as a capture importer labels them, the flow table a capture yields, and HTTP message heads.
///
/// Each packet is one `net` event and updates its flow's columns the way a capture does (times,
/// bytes and packets each way, payload, data segments, handshake bytes, FIN and RST). Request/
/// response exchanges are added with `exchange`, which sets the exchange columns; everything
/// else a scenario needs (retransmissions, flags) it sets through `update`. Times are seconds.
///
/// ```swift
/// var capture = CaptureBuilder()
/// let api = capture.tcp(to: "api.example.com", link: .cellular)
/// capture.open(api, at: 0)
/// capture.exchange(api, at: 0.1, request: 300, response: 700)
/// capture.close(api, at: 30)
/// let timeline = capture.build(end: 40)
/// ```
public struct CaptureBuilder: Sendable {
    /// A connection of the capture being built.
    public struct Connection: Sendable, Hashable {
        /// The connection's index in the flow table.
        public let flow: Int
    }

    /// Frame bytes of a TCP segment without payload: Ethernet (14) + IPv4 (20) + TCP (20).
    public static let headerBytes: Int64 = 54

    private var timeline = Timeline()
    private var flows: [FlowTable.Flow] = []
    private var messages: [HTTPMessageTable.Message] = []

    public init() {}

    /// Starts a TCP flow opened by the device (`10.0.0.2`, a port of its own) to `endpoint` on
    /// `remotePort`, on `link`. Its connection label is `tcp 10.0.0.2:PORT → ADDRESS:PORT`, with a
    /// documentation address (203.0.113.0/24) per endpoint.
    public mutating func tcp(to endpoint: String, link: LinkKind = .unspecified, remotePort: UInt16 = 443) -> Connection {
        let index = flows.count
        let address = "203.0.113.\(1 + index % 254)"
        let localPort = 50_000 + index
        var flow = FlowTable.Flow()
        flow.transport = 6
        flow.link = link
        flow.endpoint = timeline.strings.intern(endpoint)
        flow.connection = timeline.strings.intern("tcp 10.0.0.2:\(localPort) → \(address):\(remotePort)")
        flow.remotePort = remotePort
        flow.flags = .deviceOpened
        flow.firstTime = .max
        flow.lastTime = .min
        flows.append(flow)
        return Connection(flow: index)
    }

    /// TCP flags of a packet.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let syn = Flags(rawValue: 1 << 0)
        public static let fin = Flags(rawValue: 1 << 1)
        public static let rst = Flags(rawValue: 1 << 2)
    }

    /// A packet of `connection` at `t`: one `net` event of `bytes` frame bytes (spanning `span`
    /// seconds when it stands for several packets), carrying `payload` bytes in `segments` data
    /// segments. A packet without payload before the first data counts as handshake bytes.
    public mutating func packet(
        _ connection: Connection, at t: Double, _ direction: NetDirection, bytes: Int64, payload: Int64 = 0,
        segments: UInt32 = 1, span: Double = 0, flags: Flags = []
    ) {
        var flow = flows[connection.flow]
        let time = Clock.nanoseconds(t)
        let end = time + Clock.nanoseconds(span)
        timeline.append(
            Event(
                time: time, kind: .net, code: direction.rawValue, code2: flow.link.rawValue, amount: bytes,
                duration: end - time, label: flow.endpoint, label2: flow.connection))
        flow.firstTime = min(flow.firstTime, time)
        flow.lastTime = max(flow.lastTime, end)
        let up = direction == .tx
        if up {
            flow.bytesUp += bytes
            flow.packetsUp += 1
            flow.payloadUp += payload
        } else {
            flow.bytesDown += bytes
            flow.packetsDown += 1
            flow.payloadDown += payload
        }
        if payload > 0 {
            flow.dataSegments += segments
            if flow.firstDataTime == FlowTable.never { flow.firstDataTime = time }
            flow.lastDataTime = max(flow.lastDataTime, end)
        } else if flow.firstDataTime == FlowTable.never {
            flow.setupBytes += bytes
        }
        let side: FlowTable.Side = up ? .device : .remote
        if flags.contains(.syn) {
            flow.flags.insert(up ? .syn : .synAck)
        }
        if flags.contains(.fin), flow.finTime == FlowTable.never {
            flow.finTime = time
            flow.finBy = side
        }
        if flags.contains(.rst), flow.rstTime == FlowTable.never {
            flow.rstTime = time
            flow.rstBy = side
        }
        flows[connection.flow] = flow
    }

    /// The device opens `connection` at `t`: SYN, SYN+ACK after `roundTrip`, ACK.
    public mutating func open(_ connection: Connection, at t: Double, roundTrip: Double = 0.05) {
        packet(connection, at: t, .tx, bytes: Self.headerBytes, flags: .syn)
        packet(connection, at: t + roundTrip, .rx, bytes: Self.headerBytes, flags: .syn)
        packet(connection, at: t + roundTrip, .tx, bytes: Self.headerBytes)
    }

    /// A request of `request` payload bytes from the device at `t`, answered with `response`
    /// bytes `wait` seconds later: two packets and one exchange. Exchanges of less than 1000
    /// bytes each way are small, as the capture importer counts them.
    public mutating func exchange(_ connection: Connection, at t: Double, request: Int64, response: Int64, wait: Double = 0.05) {
        packet(connection, at: t, .tx, bytes: request + Self.headerBytes, payload: request)
        packet(connection, at: t + wait, .rx, bytes: response + Self.headerBytes, payload: response)
        update(connection) { flow in
            flow.exchanges += 1
            if request < 1000, response < 1000 { flow.smallExchanges += 1 }
            flow.exchangePayload += request + response
            flow.exchangeWait += Clock.nanoseconds(wait)
            if flow.firstExchangeTime == FlowTable.never { flow.firstExchangeTime = Clock.nanoseconds(t) }
            flow.lastExchangeTime = Clock.nanoseconds(t + wait)
        }
    }

    /// A FIN (or with `reset`, an RST) from `side` at `t`.
    public mutating func close(_ connection: Connection, at t: Double, by side: FlowTable.Side = .device, reset: Bool = false) {
        packet(connection, at: t, side == .remote ? .rx : .tx, bytes: Self.headerBytes, flags: reset ? .rst : .fin)
    }

    /// Sets flow columns the packets do not (retransmissions, flags…).
    public mutating func update(_ connection: Connection, _ change: (inout FlowTable.Flow) -> Void) {
        change(&flows[connection.flow])
    }

    /// An HTTP/1.x message head seen on `connection` at `t`. `contentLength` -1 means no
    /// `Content-Length` header; `nil` strings mean the header (or, for responses, the method
    /// and path) is absent.
    public mutating func http(
        _ connection: Connection, at t: Double, request: Bool, method: String? = nil, path: String? = nil,
        status: UInt16 = 0, contentType: String? = nil, contentEncoding: String? = nil, contentLength: Int64 = -1,
        bodyBytes: Int64 = 0
    ) {
        var message = HTTPMessageTable.Message()
        message.time = Clock.nanoseconds(t)
        message.flow = UInt32(connection.flow)
        message.isRequest = request
        message.method = intern(method)
        message.path = intern(path)
        message.status = status
        message.host = flows[connection.flow].endpoint
        message.contentType = intern(contentType)
        message.contentEncoding = intern(contentEncoding)
        message.contentLength = contentLength
        message.bodyBytes = bodyBytes
        messages.append(message)
        flows[connection.flow].flags.insert(.http)
    }

    /// A `net` event outside any flow (a trace's traffic), at `t`.
    public mutating func net(_ t: Double, _ direction: NetDirection, bytes: Int64, host: String? = nil, link: LinkKind = .unspecified) {
        timeline.append(
            Event(
                time: Clock.nanoseconds(t), kind: .net, code: direction.rawValue, code2: link.rawValue, amount: bytes,
                label: intern(host)))
    }

    /// A `lifecycle` event at `t`: the app state a trace of the same run, lined up with the
    /// capture by wall clock, contributes.
    public mutating func lifecycle(_ t: Double, _ state: LifecycleState) {
        timeline.append(Event(time: Clock.nanoseconds(t), kind: .lifecycle, code: state.rawValue))
    }

    /// The run: events sorted by time, the flows (a flow without packets spans nothing at
    /// time 0) and their HTTP messages. `end` (seconds) extends the run past its last event.
    public func build(end: Double? = nil) -> Timeline {
        var result = timeline
        result.sortByTime()
        for var flow in flows {
            if flow.firstTime > flow.lastTime {
                flow.firstTime = 0
                flow.lastTime = 0
            }
            result.flows.append(flow)
        }
        for message in messages { result.flows.http.append(message) }
        result.flows.http.resolveResponsePaths()
        if let end { result.end = max(result.end, Clock.nanoseconds(end)) }
        return result
    }

    private mutating func intern(_ string: String?) -> StringID {
        guard let string else { return 0 }
        return timeline.strings.intern(string)
    }
}
