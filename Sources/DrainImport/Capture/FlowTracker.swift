import DrainTrace

/// Turns decoded packets into flows, coalesced `net` events, names and HTTP messages, in one
/// pass and bounded memory: per packet it updates one `FlowState` and at most one coalescing
/// window; it grows only with flows, closed windows, distinct names and the HTTP messages it
/// keeps (`readHTTPHead`).
///
/// Nothing here allocates per packet: flow lookup is an index of fixed-size `FlowKey` hashes
/// and flow numbers (`HashIndex`, with a one-entry cache for runs of one flow), names are
/// interned from the packet bytes, and only a ClientHello split across segments is copied
/// (once per such flow). QUIC Initial packets are decrypted, but only the first few of a flow,
/// and only once their header names a known version.
struct FlowTracker {
    /// Consecutive packets of one flow and direction closer than this are one event.
    let coalescing: Nanoseconds
    /// How a new flow's link kind is chosen when neither addresses nor a per-packet header decide.
    let linkOverride: LinkKind?
    let captureLink: LinkKind

    private(set) var states = FlowStateStore()
    private var index = HashIndex()
    private var lastKey: FlowKey?
    private var lastIndex: UInt32 = 0
    private(set) var events = NetEventBuffer()
    /// Strings of the timeline being built.
    var strings = StringTable()
    /// The HTTP messages kept (`readHTTPHead`).
    private(set) var http = HTTPMessageTable()
    private var requestPaths = RequestPathQueues()
    private var plainTextHeads = HTTPMessageTable.PlainTextHeads()
    /// Addresses and the DNS name the capture resolved them from (the latest answer wins).
    private(set) var dnsNames: [IPAddress: StringID] = [:]
    /// ClientHellos split over segments, by flow, until their server name is read.
    private var pending: [UInt32: PendingClientHello] = [:]
    /// QUIC client hellos being read from Initial packets, by flow (see `FlowTracker+QUIC`).
    var quicHellos: [UInt32: QUICHelloSearch] = [:]
    /// Room to lower a name into before interning it.
    private var nameScratch = [UInt8](repeating: 0, count: DNSMessage.nameLimit + 1)

    var tally = CaptureTally()

    init(coalescing: Nanoseconds, linkOverride: LinkKind?, captureLink: LinkKind) {
        self.coalescing = coalescing
        self.linkOverride = linkOverride
        self.captureLink = captureLink
    }

    private struct PendingClientHello {
        var direction: Int
        var nextSequence: UInt32
        var bytes: [UInt8]
    }

    /// Adds one decoded packet seen at `time`, `frameBytes` long, whose captured bytes are
    /// `frame`; `number` is its 1-based packet number for diagnostics. O(1) amortised, plus the
    /// length of any DNS, TLS or HTTP head it carries.
    mutating func add(_ packet: DecodedPacket, frame: UnsafeRawBufferPointer, time: Nanoseconds, frameBytes: Int64, number: Int) {
        let (key, fromA) = FlowKey.of(packet)
        let direction = fromA ? 0 : 1
        let flowIndex = lookup(key, fromA: fromA, time: time, packet: packet)
        // Update the flow in place: move its block out of `self` while other members change.
        var block: [FlowState] = []
        let slot = states.exchangeBlock(holding: Int(flowIndex), with: &block)
        defer { _ = states.exchangeBlock(holding: Int(flowIndex), with: &block) }
        update(
            &block[slot], with: packet, flow: flowIndex, direction: direction, frame: frame, time: time,
            frameBytes: frameBytes, number: number)
    }

    private mutating func update(
        _ state: inout FlowState, with packet: DecodedPacket, flow flowIndex: UInt32, direction: Int,
        frame: UnsafeRawBufferPointer, time: Nanoseconds, frameBytes: Int64, number: Int
    ) {
        let tcpFlags = packet.transport == 6 ? packet.tcpFlags : 0
        state.firstTime = min(state.firstTime, time)
        state.lastTime = max(state.lastTime, time)
        state.packets.add(1, toLane: direction)
        state.bytes.add(frameBytes, toLane: direction)
        window(&state, flow: flowIndex, direction: direction, time: time, bytes: frameBytes)

        if tcpFlags != 0 {
            let side = UInt8(direction + 1)
            if tcpFlags & DecodedPacket.syn != 0 {
                if tcpFlags & DecodedPacket.ack == 0 {
                    state.flags.insert(.syn)
                    if state.synSide == 0 { state.synSide = side }
                } else {
                    state.flags.insert(.synAck)
                }
            }
            if tcpFlags & DecodedPacket.fin != 0, state.finTime == FlowTable.never {
                state.finTime = time
                state.finSide = side
            }
            if tcpFlags & DecodedPacket.rst != 0, state.rstTime == FlowTable.never {
                state.rstTime = time
                state.rstSide = side
            }
        }
        if packet.sourcePort == 53 || packet.destinationPort == 53 { state.flags.insert(.dns) }

        let length = packet.payloadLength
        if length > 0 {
            state.payload.add(Int64(length), toLane: direction)
            state.dataSegments &+= 1
            var kind = FlowState.SegmentKind.new
            if packet.transport == 6 {
                kind = state.sequenceCheck(direction: direction, sequence: packet.sequence, length: length)
                if kind == .retransmission { state.retransmits &+= 1 }
            }
            if kind == .new {
                if state.firstDataTime == FlowTable.never { state.firstDataTime = time }
                state.lastDataTime = max(state.lastDataTime, time)
                let newRun = state.addToRun(direction: direction, time: time, bytes: Int64(length))
                let payload = frame.slice(packet.payloadOffset..<packet.payloadOffset + packet.capturedPayload)
                inspect(
                    payload, of: packet, state: &state, flow: flowIndex, direction: direction, newRun: newRun,
                    time: time, number: number)
            }
        } else if state.firstDataTime == FlowTable.never {
            state.setupBytes += frameBytes
        }
    }

    /// The flow of a packet, created if new. A SYN on a 5-tuple whose connection was closed
    /// (FIN or RST seen) starts a new flow: ports are reused.
    private mutating func lookup(_ key: FlowKey, fromA: Bool, time: Nanoseconds, packet: DecodedPacket) -> UInt32 {
        var found: UInt32?
        var search: (hash: UInt32, probe: HashIndex.Probe)?
        if let lastKey, lastKey == key {
            found = lastIndex
        } else {
            let hash = HashIndex.hash(of: key)
            let probe = index.probe(hash: hash) { states[Int($0)].key == key }
            search = (hash, probe)
            found = probe.place
        }
        var generation: UInt32 = 1
        if let existing = found {
            let opening = packet.transport == 6 && packet.tcpFlags & (DecodedPacket.syn | DecodedPacket.ack) == DecodedPacket.syn
            let row = Int(existing)
            guard opening, states[row].finTime != FlowTable.never || states[row].rstTime != FlowTable.never else {
                lastKey = key
                lastIndex = existing
                return existing
            }
            generation = states[row].generation + 1
        }
        var state = FlowState(key: key, generation: generation, link: link(for: key, packet: packet), time: time, fromA: fromA)
        if Self.isLocal(key, packet: packet) { state.flags.insert(.local) }
        state.dnsNameA = dnsNames[key.addressA] ?? 0
        state.dnsNameB = dnsNames[key.addressB] ?? 0
        let created = UInt32(truncatingIfNeeded: states.count)
        states.append(state)
        if let search {
            index.store(created, hash: search.hash, at: search.probe)
        } else {
            // The one-entry cache answered: the key is stored, so this search finds its slot.
            let hash = HashIndex.hash(of: key)
            index.store(created, hash: hash, at: index.probe(hash: hash) { states[Int($0)].key == key })
        }
        lastKey = key
        lastIndex = created
        return created
    }

    /// A new flow's link kind: loopback addresses are loopback; else `--link`, else the
    /// packet's interface (PKTAP), else what the capture's interfaces or link type say.
    /// Local traffic (multicast, broadcast, link-local) never crosses a cellular link: where
    /// that would be cellular or the model's default, it goes on Wi-Fi.
    private func link(for key: FlowKey, packet: DecodedPacket) -> LinkKind {
        if key.addressA.scope == .loopback, key.addressB.scope == .loopback { return .loopback }
        let link = linkOverride ?? (packet.interfaceLink != .unspecified ? packet.interfaceLink : captureLink)
        if Self.isLocal(key, packet: packet), link == .cellular || link == .unspecified { return .wifi }
        return link
    }

    /// Whether a flow's first packet shows it stays on the local link: by its addresses, or
    /// by its link-layer destination.
    private static func isLocal(_ key: FlowKey, packet: DecodedPacket) -> Bool {
        key.addressA.isLocalOnly || key.addressB.isLocalOnly || packet.linkGroupDestination
    }

    /// Adds a packet to its direction's coalescing window, closing the window first when the
    /// packet is `coalescing` or more after its last packet.
    private mutating func window(_ state: inout FlowState, flow: UInt32, direction: Int, time: Nanoseconds, bytes: Int64) {
        let bit = UInt8(1 << direction)
        if state.windowOpen & bit != 0 {
            let last = state.windowLast[direction]
            let start = state.windowStart[direction]
            if coalescing > 0, time - last < coalescing, time > start - coalescing {
                state.windowLast.set(lane: direction, to: max(last, time))
                state.windowStart.set(lane: direction, to: min(start, time))
                state.windowBytes.add(bytes, toLane: direction)
                return
            }
            events.close(Int(state.windowRow[direction]), start: start, last: last, bytes: state.windowBytes[direction])
        }
        state.windowOpen |= bit
        state.windowRow.set(lane: direction, to: Int64(events.open(at: time, flow: flow, direction: direction)))
        state.windowStart.set(lane: direction, to: time)
        state.windowLast.set(lane: direction, to: time)
        state.windowBytes.set(lane: direction, to: bytes)
    }

    /// Reads what the payload says about the flow: DNS answers, a TLS ClientHello's server
    /// name, QUIC, an HTTP/1.x head; or counts it as HTTP body.
    private mutating func inspect(
        _ payload: UnsafeRawBufferPointer, of packet: DecodedPacket, state: inout FlowState, flow: UInt32,
        direction: Int, newRun: Bool, time: Nanoseconds, number: Int
    ) {
        let length = Int64(packet.payloadLength)
        if packet.sourcePort == 53 {
            readDNS(payload, tcp: packet.transport == 6, number: number)
        }
        let bit = UInt8(1 << direction)
        let first = state.inspected & bit == 0
        state.inspected |= bit
        if packet.transport == 17 {
            if first, packet.sourcePort == 443 || packet.destinationPort == 443, let byte = payload.first, byte & 0xC0 == 0xC0 {
                state.flags.insert(.quic)
            }
            if !state.quicHelloDone {
                readQUICHello(payload, state: &state, flow: flow, direction: direction, number: number)
            }
            return
        }
        guard packet.transport == 6 else { return }
        if state.awaitingClientHello {
            continueClientHello(payload, of: packet, state: &state, flow: flow, direction: direction, number: number)
        }
        if first, TLSClientHello.isHandshake(payload) {
            state.flags.insert(.tls)
            readClientHello(payload, of: packet, state: &state, flow: flow, direction: direction, number: number)
            return
        }
        guard !state.flags.contains(.tls) else { return }
        if newRun, let head = HTTPHead(payload) {
            readHTTPHead(head, payload, length: length, state: &state, flow: flow, direction: direction, time: time)
        } else if state.httpMessage[direction] >= 0 {
            http.addBodyBytes(length, to: Int(state.httpMessage[direction]))
        }
    }

    /// Reads an HTTP/1.x head, keeping it as a message only if NET-UNCOMPRESSED could read it:
    /// when it may carry a plain-text body (`HTTPMessageTable.PlainTextHeads`), or when the
    /// flow's previous message of its kind (request or response) may, as it ends that one's
    /// events. The rule's findings on the messages kept are those on every message, and a
    /// capture of chatty API calls keeps a fraction of them. A response takes the path of the
    /// request it answers (`RequestPathQueues`), kept or not.
    private mutating func readHTTPHead(
        _ head: HTTPHead, _ payload: UnsafeRawBufferPointer, length: Int64, state: inout FlowState, flow: UInt32,
        direction: Int, time: Nanoseconds
    ) {
        state.flags.insert(.http)
        let host = intern(payload, head.host, lowered: true)
        if head.isRequest, state.httpHost == 0 { state.httpHost = host }
        let path: StringID
        if head.isRequest {
            path = intern(payload, head.target)
            requestPaths.asked(path, queue: &state.requestPaths)
        } else {
            path = requestPaths.answered(queue: &state.requestPaths)
        }
        let contentType = intern(payload, head.contentType)
        let contentEncoding = intern(payload, head.contentEncoding)
        let kind = UInt8(head.isRequest ? 1 : 2)
        let mayCarryText = plainTextHeads.mayCarryPlainText(type: contentType, encoding: contentEncoding, strings: strings)
        let afterText = state.httpLastMayCarryText & kind != 0
        state.httpLastMayCarryText = mayCarryText ? state.httpLastMayCarryText | kind : state.httpLastMayCarryText & ~kind
        guard mayCarryText || afterText else {
            state.httpMessage.set(lane: direction, to: -1)
            return
        }
        var message = HTTPMessageTable.Message()
        message.time = time
        message.flow = flow
        message.isRequest = head.isRequest
        message.status = head.status
        message.method = intern(payload, head.method)
        message.path = path
        message.host = host
        message.contentType = contentType
        message.contentEncoding = contentEncoding
        message.contentLength = head.contentLength
        message.bodyBytes = head.bodyStart.map { length - Int64($0) } ?? 0
        state.httpMessage.set(lane: direction, to: Int32(truncatingIfNeeded: http.append(message)))
    }

    private mutating func readDNS(_ payload: UnsafeRawBufferPointer, tcp: Bool, number: Int) {
        var message = payload
        if tcp {
            // DNS over TCP: a 2-byte length, then the message; only whole messages in one segment.
            guard payload.count >= 2 else { return }
            let size = Int(payload.u16(at: 0))
            guard 2 + size <= payload.count else { return }
            message = payload.slice(2..<2 + size)
        }
        var question: StringID?
        let outcome = DNSMessage(bytes: message).addresses { offset, address in
            if question == nil {
                question = nameScratch.withUnsafeMutableBytes { scratch in
                    DNSMessage(bytes: message).decodeName(at: offset, into: scratch).map { length in
                        strings.intern(UnsafeRawBufferPointer(rebasing: scratch[0..<length]))
                    } ?? 0
                }
            }
            if let question, question != 0 { dnsNames[address] = question }
        }
        if outcome == .malformed { tally.unreadablePayload.add(packet: number, "DNS response") }
    }

    private mutating func readClientHello(
        _ payload: UnsafeRawBufferPointer, of packet: DecodedPacket, state: inout FlowState, flow: UInt32, direction: Int,
        number: Int
    ) {
        switch TLSClientHello.read(payload) {
        case let .serverName(range):
            state.serverName = intern(payload, range, lowered: true)
        case let .incomplete(total):
            guard total <= TLSClientHello.reassemblyLimit, packet.capturedPayload == packet.payloadLength else { return }
            pending[flow] = PendingClientHello(
                direction: direction, nextSequence: packet.sequence &+ UInt32(packet.payloadLength), bytes: Array(payload))
            state.awaitingClientHello = true
        case .malformed:
            tally.unreadablePayload.add(packet: number, "TLS ClientHello")
        case .notTLS, .otherHandshake, .noServerName:
            break
        }
    }

    /// Adds the next in-order segment to a split ClientHello and reads it again; gives up on a
    /// gap, a cut segment or when the hello is read.
    private mutating func continueClientHello(
        _ payload: UnsafeRawBufferPointer, of packet: DecodedPacket, state: inout FlowState, flow: UInt32, direction: Int,
        number: Int
    ) {
        guard var hello = pending[flow], hello.direction == direction else { return }
        pending[flow] = nil
        state.awaitingClientHello = false
        guard packet.sequence == hello.nextSequence, packet.capturedPayload == packet.payloadLength else { return }
        hello.bytes.append(contentsOf: payload)
        hello.nextSequence &+= UInt32(packet.payloadLength)
        let outcome = hello.bytes.withUnsafeBytes { bytes -> TLSClientHello.Outcome in
            let outcome = TLSClientHello.read(bytes)
            if case let .serverName(range) = outcome { state.serverName = intern(bytes, range, lowered: true) }
            return outcome
        }
        switch outcome {
        case .incomplete:
            pending[flow] = hello
            state.awaitingClientHello = true
        case .malformed:
            tally.unreadablePayload.add(packet: number, "TLS ClientHello")
        default:
            break
        }
    }

    /// Interns the bytes `range` of `payload`, ASCII letters lowered if `lowered` (host
    /// names), cut to the longest name. `0` for an empty range.
    mutating func intern(_ payload: UnsafeRawBufferPointer, _ range: Range<Int>, lowered: Bool = false) -> StringID {
        guard !range.isEmpty else { return 0 }
        guard lowered else { return strings.intern(payload.slice(range)) }
        let count = min(range.count, nameScratch.count)
        return nameScratch.withUnsafeMutableBytes { scratch in
            for offset in 0..<count { scratch[offset] = DNSMessage.lower(payload[range.lowerBound + offset]) }
            return strings.intern(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
        }
    }

    /// Hands over the flow states, the coalesced events and the HTTP messages, leaving the
    /// tracker empty, its flow index freed with them: `write` holds each only as long as it
    /// needs it, and nothing of the capture twice while the timeline is built.
    mutating func takeResults() -> (states: FlowStateStore, events: NetEventBuffer, http: HTTPMessageTable) {
        defer {
            (states, events, http) = (FlowStateStore(), NetEventBuffer(), HTTPMessageTable())
            (index, lastKey) = (HashIndex(), nil)
        }
        return (states, events, http)
    }

    /// Closes every flow's open windows and payload runs. Call once, after the last packet.
    mutating func closeAll() {
        for flow in states.indices {
            let state = states[flow]
            for direction in 0..<2 where state.windowOpen & UInt8(1 << direction) != 0 {
                events.close(
                    Int(state.windowRow[direction]), start: state.windowStart[direction], last: state.windowLast[direction],
                    bytes: state.windowBytes[direction])
            }
            states[flow].windowOpen = 0
            states[flow].closeRun()
        }
        pending = [:]
        quicHellos = [:]
    }
}
