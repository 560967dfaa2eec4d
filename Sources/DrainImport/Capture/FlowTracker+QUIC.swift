import DrainTrace

/// A QUIC client hello being read from a flow's Initial packets: the version and keys of the
/// client's Initials, the direction they go, and their CRYPTO stream so far.
struct QUICHelloSearch {
    let version: QUICInitialVersion
    var keys: QUICInitialKeys
    let direction: Int
    var largestPacketNumber: Int64 = -1
    var stream = QUICCryptoStream()
}

extension FlowTracker {
    /// Datagrams of a UDP flow read for a client hello. A ClientHello fills one to three
    /// Initial packets (more with post-quantum key shares), with the server's first packets
    /// in between; a flow that has shown none by then is not QUIC, or was caught too late.
    static let quicDatagramLimit: UInt8 = 16
    /// Long-header packets looked at in one datagram (they may be coalesced, RFC 9000 §12.2).
    static let coalescedPacketLimit = 4

    /// What a client hello read so far says.
    private enum HelloReading {
        case named(Range<Int>)
        case waiting
        case over(malformed: Bool)
    }

    /// Reads a QUIC or Google QUIC client hello's server name from a UDP payload: from a
    /// version 1, version 2, draft-29 or Q050 Initial packet, which it decrypts; or from a
    /// Google QUIC packet sent in the clear. Costs a few byte comparisons for any other
    /// datagram, and nothing after the flow's first `quicDatagramLimit` datagrams.
    mutating func readQUICHello(
        _ payload: UnsafeRawBufferPointer, state: inout FlowState, flow: UInt32, direction: Int, number: Int
    ) {
        state.quicDatagrams &+= 1
        guard state.quicDatagrams <= Self.quicDatagramLimit, let first = payload.first else {
            finishQUICHello(&state, flow: flow)
            return
        }
        if first & 0x80 != 0, payload.count >= 5, QUICInitialVersion(payload.u32(at: 1)) != nil {
            readInitials(payload, state: &state, flow: flow, direction: direction, number: number)
            return
        }
        let reading: HelloReading
        switch GQUICClientHello.read(payload) {
        case .notClientHello: return
        case let .serverName(range): reading = .named(range)
        case .malformed: reading = .over(malformed: true)
        // A CHLO fits in one packet (QUIC crypto pads it to about a full one).
        case .noServerName, .incomplete: reading = .over(malformed: false)
        }
        state.flags.insert(.quic)
        finish(reading, in: payload, state: &state, flow: flow, number: number, what: "Google QUIC CHLO")
    }

    /// Opens the Initial packets of a datagram, adds their CRYPTO frames to the flow's
    /// stream, and reads the hello when the stream holds it.
    private mutating func readInitials(
        _ datagram: UnsafeRawBufferPointer, state: inout FlowState, flow: UInt32, direction: Int, number: Int
    ) {
        var search = quicHellos.removeValue(forKey: flow)
        // Once the client's direction is known, the server's Initials are not tried.
        if let known = search, known.direction != direction {
            quicHellos[flow] = known
            return
        }
        var start = 0
        var looked = 0
        var overflowed = false
        while looked < Self.coalescedPacketLimit, let header = QUICLongHeader.read(datagram, at: start) {
            looked += 1
            start = header.end
            guard header.isInitial, let opened = open(header, of: datagram, direction: direction, search: &search) else { continue }
            state.flags.insert(.quic)
            guard var current = search else { continue }
            opened.frames.withUnsafeBytes { frames in
                QUICInitialFrames.forEachCrypto(in: frames, handshake: current.version.handshake) { offset, data in
                    overflowed = !current.stream.add(offset: offset, data)
                    return !overflowed
                }
            }
            search = current
        }
        guard let search else { return }
        if overflowed {
            finishQUICHello(&state, flow: flow)
            return
        }
        let reading = search.stream.bytes.withUnsafeBytes { stream in
            Self.readHello(stream.slice(0..<search.stream.contiguous), handshake: search.version.handshake)
        }
        if case .waiting = reading {
            quicHellos[flow] = search
            return
        }
        search.stream.bytes.withUnsafeBytes { stream in
            finish(
                reading, in: stream, state: &state, flow: flow, number: number,
                what: search.version.handshake == .tls ? "QUIC ClientHello" : "Google QUIC CHLO")
        }
    }

    /// Opens one Initial packet: with the keys of the client's earlier Initials, else with
    /// keys from this packet's Destination Connection ID (the client's first Initial, or its
    /// first after a Retry, whose keys then replace the others and whose CRYPTO stream starts
    /// anew: RFC 9001 §5.2). Creates the search on the first packet opened.
    private func open(
        _ header: QUICLongHeader, of datagram: UnsafeRawBufferPointer, direction: Int, search: inout QUICHelloSearch?
    ) -> QUICInitialDecryptor.Opened? {
        if let known = search, known.version == header.version,
            let opened = QUICInitialDecryptor.open(
                datagram, header: header, keys: known.keys, largestPacketNumber: known.largestPacketNumber)
        {
            search?.largestPacketNumber = max(known.largestPacketNumber, opened.packetNumber)
            return opened
        }
        let keys = QUICInitialKeys(version: header.version, destinationID: datagram.slice(header.destinationID))
        guard let opened = QUICInitialDecryptor.open(datagram, header: header, keys: keys, largestPacketNumber: -1) else {
            return nil
        }
        search = QUICHelloSearch(version: header.version, keys: keys, direction: direction, largestPacketNumber: opened.packetNumber)
        return opened
    }

    /// What the contiguous start of a CRYPTO stream says about its hello.
    private static func readHello(_ stream: UnsafeRawBufferPointer, handshake: QUICInitialVersion.Handshake) -> HelloReading {
        switch handshake {
        case .tls:
            switch TLSClientHello.readHandshake(stream) {
            case let .serverName(range): return .named(range)
            case let .incomplete(total): return total <= QUICCryptoStream.limit ? .waiting : .over(malformed: false)
            case .malformed: return .over(malformed: true)
            case .notTLS, .otherHandshake, .noServerName: return .over(malformed: false)
            }
        case .googleCrypto:
            switch GQUICClientHello.readMessage(stream) {
            case let .serverName(range): return .named(range)
            case let .incomplete(total): return total <= QUICCryptoStream.limit ? .waiting : .over(malformed: false)
            case .malformed: return .over(malformed: true)
            case .notClientHello, .noServerName: return .over(malformed: false)
            }
        }
    }

    /// Ends the flow's search with what `reading` says of the hello in `bytes`.
    private mutating func finish(
        _ reading: HelloReading, in bytes: UnsafeRawBufferPointer, state: inout FlowState, flow: UInt32, number: Int,
        what: StaticString
    ) {
        switch reading {
        case let .named(range): state.serverName = intern(bytes, range, lowered: true)
        case .over(malformed: true): tally.unreadablePayload.add(packet: number, what)
        case .waiting, .over(malformed: false): break
        }
        finishQUICHello(&state, flow: flow)
    }

    private mutating func finishQUICHello(_ state: inout FlowState, flow: UInt32) {
        state.quicHelloDone = true
        quicHellos[flow] = nil
    }
}
