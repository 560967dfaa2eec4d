import DrainTrace
import DrainTraceWriter

extension FlowTracker {
    /// Writes the capture into `timeline`: the flow table, then the coalesced `net` events in
    /// time order, each labelled with its flow's endpoint and connection and directed by the
    /// device side. Every time moves by `shift` (to make the earliest packet time ≥ 0).
    /// Call `closeAll()` first. The tracker's strings, flows, events and HTTP messages move to
    /// the timeline (it keeps none), each freed once written: the flow states block by block as
    /// the flow table fills; at the peak, while the events are copied, the flow states are gone
    /// and the HTTP messages take their exact size.
    /// O(flows + events), O(events log events) for a capture out of time order.
    mutating func write(into timeline: inout Timeline, input: UInt16, device: DeviceSide, shift: Nanoseconds) {
        timeline.strings = strings
        strings = StringTable()
        var (states, events, http) = takeResults()
        var flows = FlowTable()
        flows.reserveCapacity(states.count)
        var deviceSideOfFlow = [UInt8](repeating: 0, count: states.count)
        var endpoints = [StringID](repeating: 0, count: states.count)
        var connections = [StringID](repeating: 0, count: states.count)
        var links = [LinkKind](repeating: .unspecified, count: states.count)
        func moved(_ time: Nanoseconds) -> Nanoseconds { time == FlowTable.never ? time : time + shift }
        var text = JSONLine(capacity: 128)
        func intern(_ write: (inout JSONLine) -> Void) -> StringID {
            text.removeAll()
            write(&text)
            return text.bytes.withUnsafeBytes { timeline.strings.intern($0) }
        }
        // Each flow's label names its 5-tuple and, for a reused one, its generation: the labels
        // differ from each other, and nothing looks one up by text, so none is hashed.
        func label(_ write: (inout JSONLine) -> Void) -> StringID {
            text.removeAll()
            write(&text)
            return text.bytes.withUnsafeBytes { timeline.strings.appendUnindexed($0) }
        }
        var index = 0
        func convert(_ state: FlowState) {
            let deviceIsA = device.deviceIsA(state)
            let up = deviceIsA ? 0 : 1
            let down = 1 - up
            deviceSideOfFlow[index] = UInt8(up)
            let remote = deviceIsA ? state.key.addressB : state.key.addressA
            let remoteDNS = deviceIsA ? state.dnsNameB : state.dnsNameA
            var endpoint = state.serverName
            if endpoint == 0 { endpoint = state.httpHost }
            if endpoint == 0 { endpoint = remoteDNS }
            if endpoint == 0 { endpoint = dnsNames[remote] ?? 0 }
            if endpoint == 0 { endpoint = intern { remote.appendText(to: &$0) } }
            endpoints[index] = endpoint
            connections[index] = label { Self.appendConnectionLabel(state, deviceIsA: deviceIsA, to: &$0) }

            func side(_ raw: UInt8) -> FlowTable.Side {
                raw == 0 ? .none : (Int(raw - 1) == up ? .device : .remote)
            }
            var flow = FlowTable.Flow()
            flow.input = input
            flow.transport = state.key.transport
            flow.link = state.link
            flow.endpoint = endpoint
            flow.connection = connections[index]
            flow.remotePort = deviceIsA ? state.key.portB : state.key.portA
            flow.firstTime = state.firstTime + shift
            flow.lastTime = state.lastTime + shift
            flow.firstDataTime = moved(state.firstDataTime)
            flow.lastDataTime = moved(state.lastDataTime)
            flow.bytesUp = state.bytes[up]
            flow.bytesDown = state.bytes[down]
            flow.payloadUp = state.payload[up]
            flow.payloadDown = state.payload[down]
            flow.packetsUp = state.packets[up]
            flow.packetsDown = state.packets[down]
            flow.setupBytes = state.setupBytes
            flow.dataSegments = state.dataSegments
            flow.retransmits = state.retransmits
            flow.finTime = moved(state.finTime)
            flow.finBy = side(state.finSide)
            flow.rstTime = moved(state.rstTime)
            flow.rstBy = side(state.rstSide)
            flow.flags = state.flags
            if state.synSide != 0 ? Int(state.synSide - 1) == up : state.firstFromA == deviceIsA {
                flow.flags.insert(.deviceOpened)
            }
            flow.exchanges = state.exchanges[up]
            flow.smallExchanges = state.smallExchanges[up]
            flow.exchangePayload = state.exchangePayload[up]
            flow.exchangeWait = state.exchangeWait[up]
            flow.firstExchangeTime = moved(state.firstExchangeTime[up])
            flow.lastExchangeTime = moved(state.lastExchangeTime[up])
            flows.append(flow)
            links[index] = state.link
        }
        states.removeAll { block in
            for state in block {
                convert(state)
                index += 1
            }
        }
        if shift == 0 {
            flows.http = http
        } else {
            let identity = (0..<UInt32(timeline.strings.count)).map { $0 }
            flows.http.append(contentsOf: http, flowOffset: 0, shift: shift, strings: identity)
        }
        http = HTTPMessageTable()
        flows.http.releaseUnusedCapacity()
        timeline.flows = flows

        var rows = events.takeColumns(shift: shift)
        let direction = rows.flow.indices.map { rows.direction[$0] == deviceSideOfFlow[Int(rows.flow[$0])] ? NetDirection.tx : .rx }
        rows.direction = []
        let link = rows.flow.map { links[Int($0)] }
        let host = rows.flow.map { endpoints[Int($0)] }
        for row in rows.flow.indices { rows.flow[row] = connections[Int(rows.flow[row])] }
        let columns = NetRowColumns(
            time: rows.time, direction: direction, link: link, bytes: rows.bytes, duration: rows.duration, host: host,
            connection: rows.flow)
        rows = ([], [], [], [], [])
        timeline.appendNetRows(columns, input: input)
        timeline.releaseUnusedCapacity()
    }

    /// Appends `tcp 192.168.1.2:50000 → 93.184.216.34:443`, device side first, to `label`;
    /// ` #2` and up for a reused 5-tuple.
    static func appendConnectionLabel(_ state: FlowState, deviceIsA: Bool, to label: inout JSONLine) {
        let key = state.key
        let (local, localPort, remote, remotePort) =
            deviceIsA
            ? (key.addressA, key.portA, key.addressB, key.portB) : (key.addressB, key.portB, key.addressA, key.portA)
        let ports = (key.transport == 6 || key.transport == 17 || key.transport == 132) && (localPort != 0 || remotePort != 0)
        func endpoint(_ address: IPAddress, _ port: UInt16) {
            guard ports else { return address.appendText(to: &label) }
            if !address.isV4 { label.byte(UInt8(ascii: "[")) }
            address.appendText(to: &label)
            label.raw(address.isV4 ? ":" : "]:")
            label.unsigned(UInt64(port))
        }
        appendTransportName(key.transport, to: &label)
        label.byte(UInt8(ascii: " "))
        endpoint(local, localPort)
        label.raw(" → ")
        endpoint(remote, remotePort)
        if state.generation > 1 {
            label.raw(" #")
            label.unsigned(UInt64(state.generation))
        }
    }

    static func appendTransportName(_ number: UInt8, to label: inout JSONLine) {
        switch number {
        case 6: label.raw("tcp")
        case 17: label.raw("udp")
        case 1: label.raw("icmp")
        case 58: label.raw("icmpv6")
        case 2: label.raw("igmp")
        case 47: label.raw("gre")
        case 50: label.raw("esp")
        case 132: label.raw("sctp")
        default:
            label.raw("ip-proto-")
            label.unsigned(UInt64(number))
        }
    }
}
