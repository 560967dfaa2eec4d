import DrainTrace

/// What the importer keeps about one flow while it reads a capture. Plain values only (no
/// references), so reading and writing it back per packet is a copy, never an allocation.
///
/// Directions are by the flow key's sides: index 0 is A → B, index 1 is B → A. Which side is
/// the device is decided when the capture is finished (`DeviceSide`).
struct FlowState {
    // Declared by alignment (16, 8, 4, 2 and 1 bytes), each group by meaning, so that the only
    // padding between fields is what follows the 37-byte key and each 25-byte run: 416 bytes a
    // state, where declaring them by meaning alone took 448 (`FlowStateLayoutTests`). The
    // states are the largest structure of a capture of many flows.

    var bytes = SIMD2<Int64>(0, 0)
    var payload = SIMD2<Int64>(0, 0)
    /// The open coalescing window each way: its row in the event buffer, first and last
    /// packet time and bytes (`windowOpen` says which are open).
    var windowRow = SIMD2<Int64>(0, 0)
    var windowStart = SIMD2<Int64>(0, 0)
    var windowLast = SIMD2<Int64>(0, 0)
    var windowBytes = SIMD2<Int64>(0, 0)
    /// Exchanges' payload, wait and times by the side that sent the request (index 0: A).
    var exchangePayload = SIMD2<Int64>(0, 0)
    var exchangeWait = SIMD2<Int64>(0, 0)
    var firstExchangeTime = SIMD2<Int64>(FlowTable.never, FlowTable.never)
    var lastExchangeTime = SIMD2<Int64>(FlowTable.never, FlowTable.never)

    var key: FlowKey
    var firstTime: Nanoseconds
    var lastTime: Nanoseconds
    var firstDataTime = FlowTable.never
    var lastDataTime = FlowTable.never
    var finTime = FlowTable.never
    var rstTime = FlowTable.never
    var setupBytes: Int64 = 0
    /// The current run of payload in one direction and the run before it (side 0: none,
    /// 1: A → B, 2: B → A), for request/response exchanges.
    var run = PayloadRun()
    var previousRun = PayloadRun()

    var packets = SIMD2<UInt32>(0, 0)
    /// Highest TCP sequence number + length seen each way, valid where `sequenceKnown` has the bit.
    var highestSequence = SIMD2<UInt32>(0, 0)
    /// Exchanges by the side that sent the request (index 0: A).
    var exchanges = SIMD2<UInt32>(0, 0)
    var smallExchanges = SIMD2<UInt32>(0, 0)
    /// The HTTP message whose body the payload of each direction belongs to, or -1 (none, or
    /// a message not kept).
    var httpMessage = SIMD2<Int32>(-1, -1)
    /// Reuses of the same 5-tuple after a close: 1 for the first connection, 2 for the next…
    var generation: UInt32
    var dataSegments: UInt32 = 0
    var retransmits: UInt32 = 0
    /// Names learnt for the flow: TLS server name, HTTP Host, DNS names of each side's address.
    var serverName: StringID = 0
    var httpHost: StringID = 0
    var dnsNameA: StringID = 0
    var dnsNameB: StringID = 0
    /// The paths of the flow's requests not yet answered (`RequestPathQueues`).
    var requestPaths = RequestPathQueues.Queue()

    var flags: FlowTable.Flags = []

    var link: LinkKind
    var firstFromA: Bool
    var sequenceKnown: UInt8 = 0
    /// Who sent the first FIN, RST or SYN (without ACK): 0 nobody, 1 side A, 2 side B.
    var finSide: UInt8 = 0
    var rstSide: UInt8 = 0
    var synSide: UInt8 = 0
    /// Payload directions already inspected for TLS and QUIC (bit 0: A → B, bit 1: B → A).
    var inspected: UInt8 = 0
    /// A ClientHello split over segments is being reassembled (see `FlowTracker.pending`).
    var awaitingClientHello = false
    /// UDP datagrams read for a QUIC or Google QUIC client hello; none more are read once the
    /// hello is read or `FlowTracker.quicDatagramLimit` were (see `FlowTracker+QUIC`).
    var quicDatagrams: UInt8 = 0
    var quicHelloDone = false
    /// Bit 0: the window A → B is open; bit 1: B → A.
    var windowOpen: UInt8 = 0
    /// Whether the flow's latest request (bit 0) and latest response (bit 1) may carry a
    /// plain-text body (`HTTPMessageTable.PlainTextHeads`): the message after one is kept.
    var httpLastMayCarryText: UInt8 = 0

    init(key: FlowKey, generation: UInt32, link: LinkKind, time: Nanoseconds, fromA: Bool) {
        self.key = key
        self.generation = generation
        self.link = link
        firstTime = time
        lastTime = time
        firstFromA = fromA
    }

    /// Payload exchanges of less than this many bytes each way are small (GUIDANCE NET-CHATTY:
    /// "< 1 KB"; decimal, like every byte unit in Drain).
    static let smallExchangeBytes: Int64 = 1000

    /// Adds payload of direction `direction` to the runs; returns whether it starts a new run.
    mutating func addToRun(direction: Int, time: Nanoseconds, bytes: Int64) -> Bool {
        let side = UInt8(direction + 1)
        if run.side == side {
            run.end = max(run.end, time)
            run.bytes += bytes
            return false
        }
        closeRun()
        run = PayloadRun(start: time, end: time, bytes: bytes, side: side)
        return true
    }

    /// Ends the current run; if it answers a run of the other direction, that pair is an exchange.
    mutating func closeRun() {
        guard run.side != 0 else { return }
        if previousRun.side != 0, previousRun.side != run.side {
            let requester = Int(previousRun.side - 1)
            exchanges.add(1, toLane: requester)
            if previousRun.bytes < Self.smallExchangeBytes, run.bytes < Self.smallExchangeBytes {
                smallExchanges.add(1, toLane: requester)
            }
            exchangePayload.add(previousRun.bytes + run.bytes, toLane: requester)
            exchangeWait.add(max(0, run.start - previousRun.end), toLane: requester)
            if firstExchangeTime[requester] == FlowTable.never { firstExchangeTime.set(lane: requester, to: previousRun.start) }
            lastExchangeTime.set(lane: requester, to: run.end)
        }
        previousRun = run
        run = PayloadRun()
    }

    /// Classifies a TCP data segment against the highest sequence number seen its way.
    mutating func sequenceCheck(direction: Int, sequence: UInt32, length: Int) -> SegmentKind {
        let end = sequence &+ UInt32(truncatingIfNeeded: length)
        let bit = UInt8(1 << direction)
        guard sequenceKnown & bit != 0 else {
            sequenceKnown |= bit
            highestSequence.set(lane: direction, to: end)
            return .new
        }
        let highest = highestSequence[direction]
        if Int32(bitPattern: end &- highest) > 0 {
            highestSequence.set(lane: direction, to: end)
            return .new
        }
        // A keep-alive probe repeats the byte before the next one expected (or carries none).
        return length <= 1 && sequence == highest &- 1 ? .keepAlive : .retransmission
    }

    enum SegmentKind { case new, retransmission, keepAlive }
}

/// A run of payload in one direction of a flow.
struct PayloadRun {
    var start: Nanoseconds = 0
    var end: Nanoseconds = 0
    var bytes: Int64 = 0
    var side: UInt8 = 0
}
