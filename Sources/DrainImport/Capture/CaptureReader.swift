import CMappedFile
import CPcap
import DrainTrace

/// The read loop of a capture: libpcap's `pcap_next_ex`, one decode and one flow update per
/// packet, and the bookkeeping for the import's diagnostics and clock.
struct CaptureReader {
    let file: CaptureFile
    let decoder: PacketDecoder
    var tracker: FlowTracker
    /// Packets libpcap returned.
    private(set) var packets = 0
    /// Wall-clock time of the first packet, nanoseconds since the Unix epoch: time zero.
    private(set) var origin: Int64?
    /// Earliest and latest packet times relative to `origin` (they differ from the first and
    /// last packet's in a capture that is not in time order).
    private(set) var earliest: Nanoseconds?
    private(set) var latest: Nanoseconds?

    /// Told the bytes of the file read every `progressStride` packets.
    let progress: ImportProgress?
    static let progressStride = 8192

    /// Whether libpcap reads on a thread of its own, ahead of the decoding (`PacketPipe`).
    let readAhead: Bool
    /// Why the reading thread stopped, when the error was its own rather than libpcap's.
    private var readerFailure: String?

    /// When the reading thread, reading ahead, decodes packets itself.
    let decodeOnRead: PacketPipe.DecodeOnRead

    init(
        file: CaptureFile, decoder: PacketDecoder, tracker: FlowTracker, progress: ImportProgress? = nil, readAhead: Bool = false,
        decodeOnRead: PacketPipe.DecodeOnRead = .whenBehind
    ) {
        self.file = file
        self.decoder = decoder
        self.tracker = tracker
        self.progress = progress
        self.readAhead = readAhead
        self.decodeOnRead = decodeOnRead
    }

    /// Reads every packet libpcap returns; if the file is cut short, records where and what
    /// was lost and keeps what was read. O(packets).
    ///
    /// - Throws: `.badData` at the packet and byte of a damaged record (a length beyond the
    ///   snapshot length or libpcap's maximum, a malformed pcapng block): unlike a file cut
    ///   short, nothing after it can be trusted to be where its header says; the gzip
    ///   stream's failure when the compressed data is damaged.
    mutating func run(diagnostics: inout ImportDiagnostics) throws(ImportError) {
        var cursor = Cursor(recordOffset: file.firstRecordOffset)
        let status = readAhead ? readPipelined(&cursor) : readHere(&cursor)
        if let shrunk = file.currentSize, let size = file.size, shrunk < size {
            throw .unreadable(path: file.path, reason: FileByteSource.shrankMessage(from: Int(size), at: Int(shrunk)))
        }
        if status != PCAP_ERROR_BREAK {
            try recordStop(status: status, recordOffset: cursor.recordOffset, diagnostics: &diagnostics)
        }
    }

    /// What the read loop carries from one packet to the next.
    private struct Cursor {
        var decoded = DecodedPacket()
        /// Where the next record starts, in a classic pcap file.
        var recordOffset: Int64?
        var previous: Nanoseconds = .min
    }

    /// libpcap's loop on this thread; returns `pcap_next_ex`'s status when it stopped.
    private mutating func readHere(_ cursor: inout Cursor) -> Int32 {
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        let file = self.file
        while true {
            let status = pcap_next_ex(file.handle, &header, &data)
            guard status == 1, let header, let data else { return status }
            let captured = Int(header.pointee.caplen)
            add(
                seconds: Int64(header.pointee.ts.tv_sec), fraction: Int64(header.pointee.ts.tv_usec), captured: captured,
                length: Int(header.pointee.len), data: UnsafeRawBufferPointer(start: data, count: captured), bytesRead: file.bytesRead,
                cursor: &cursor)
        }
    }

    /// libpcap's loop on a thread of its own (`PacketPipe`), this thread decoding what it read;
    /// the same packets in the same order as `readHere`. Falls back to `readHere` when no
    /// thread can be started.
    private mutating func readPipelined(_ cursor: inout Cursor) -> Int32 {
        let pipe = PacketPipe(decoder: decoder, decodeOnRead: decodeOnRead)
        let source = PcapSource(file: file)
        guard
            let reader = JoinableThread.start(
                runHereIfNoThread: false,
                { pipe.read(source.file.handle, inPlace: source.file.inPlaceRecords, bytesRead: { source.file.bytesRead }) })
        else { return readHere(&cursor) }
        while let batch = pipe.nextFilled() {
            batch.decoded.withUnsafeBufferPointer { decoded in
                batch.withBytes { bytes in
                    let records = batch.records
                    for (index, record) in records.enumerated() {
                        if index &+ Self.prefetchRecordsAhead < records.count, let base = bytes.baseAddress {
                            let next = base + records[index &+ Self.prefetchRecordsAhead].offset
                            drain_prefetch(next)
                            drain_prefetch(next + PacketPipe.cacheLineBytes)
                        }
                        let captured = Int(record.captured)
                        add(
                            seconds: record.seconds, fraction: record.fraction, captured: captured, length: Int(record.length),
                            data: UnsafeRawBufferPointer(rebasing: bytes[record.offset..<(record.offset + captured)]),
                            bytesRead: batch.bytesRead, cursor: &cursor, decoded: decoded.isEmpty ? nil : decoded[index])
                    }
                }
            }
            pipe.release()
        }
        reader.join()
        readerFailure = pipe.failure
        return pipe.stopStatus
    }

    /// How many records ahead of the one it decodes the tracking thread asks for a packet's
    /// first two cache lines (its link, IP and transport headers). The reading thread brought
    /// them into its own core's cache (`PacketPipe.prefetchDistance`); asked for early, they
    /// arrive here while the packets before them are decoded. On the 1 GiB sessions capture
    /// (2-core AMD EPYC, session 35) a run took 0.89× as long with 8, 0.91× with 4.
    static let prefetchRecordsAhead = 8

    /// The capture file, handed to the reading thread, which alone uses it until joined.
    private struct PcapSource: @unchecked Sendable {
        let file: CaptureFile
    }

    /// One packet: its time on the run's clock, its decoding (`decoded`, when the reading
    /// thread did it), and its flow.
    private mutating func add(
        seconds: Int64, fraction: Int64, captured: Int, length: Int, data frame: UnsafeRawBufferPointer, bytesRead: @autoclosure () -> Int64?,
        cursor: inout Cursor, decoded: PacketBatch.Decoded? = nil
    ) {
        packets += 1
        if let progress, packets % Self.progressStride == 0, let read = bytesRead() { progress(read) }
        let wire = max(length, captured)
        cursor.recordOffset = cursor.recordOffset.map { $0 + 16 + Int64(captured) }
        let time = relativeTime(seconds: seconds, nanoseconds: fraction)
        if time < cursor.previous {
            tracker.tally.outOfOrder.add(packet: packets, ())
            tracker.tally.largestStepBack = max(tracker.tally.largestStepBack, cursor.previous - time)
        }
        cursor.previous = time
        // A packet the reading thread decoded goes to the tracker from the batch as it is:
        // copied into the cursor first, it was read back in wider loads than it was written,
        // each waiting for the copy's stores to retire.
        if let decoded {
            track(decoded.packet, problem: decoded.problem, frame: frame, wire: wire, time: time)
        } else {
            let problem = decoder.decode(frame, wire: wire, into: &cursor.decoded)
            track(cursor.decoded, problem: problem, frame: frame, wire: wire, time: time)
        }
    }

    /// Counts a packet that was not decoded, or hands a decoded one to the flow tracker.
    @inline(__always)
    private mutating func track(_ packet: DecodedPacket, problem: FrameProblem?, frame: UnsafeRawBufferPointer, wire: Int, time: Nanoseconds) {
        if let problem {
            count(problem, packet: packets, bytes: Int64(wire))
            return
        }
        if packet.isFragment {
            tracker.tally.fragments.add(packet: packets, ())
        } else if packet.transportMissing {
            tracker.tally.cut.add(packet: packets, ())
        }
        let frameBytes = Int64(wire - packet.pseudoHeaderBytes)
        tracker.add(packet, frame: frame, time: time, frameBytes: frameBytes, number: packets)
    }

    /// A packet time on the timeline's clock: nanoseconds since the first packet.
    private mutating func relativeTime(seconds: Int64, nanoseconds: Int64) -> Nanoseconds {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: Clock.nanosecondsPerSecond)
        let absolute = overflow ? (seconds < 0 ? Int64.min / 2 : Int64.max / 2) : scaled &+ nanoseconds
        let base = origin ?? absolute
        if origin == nil { origin = absolute }
        let time = absolute &- base
        earliest = min(earliest ?? time, time)
        latest = max(latest ?? time, time)
        return time
    }

    private mutating func count(_ problem: FrameProblem, packet: Int, bytes: Int64) {
        switch problem {
        case let .notIP(kind): tracker.tally.notIP.add(packet: packet, bytes: bytes, kind)
        case .cut: tracker.tally.cut.add(packet: packet, bytes: bytes, ())
        case let .malformed(reason): tracker.tally.malformed.add(packet: packet, bytes: bytes, reason)
        case let .unsupportedLinkType(type): tracker.tally.unsupportedLinkType.add(packet: packet, bytes: bytes, type)
        }
    }

    /// libpcap stopped before the end of the file: say where, why, and how much was not read;
    /// or refuse the file if the record there is damaged rather than cut short.
    private func recordStop(status: Int32, recordOffset: Int64?, diagnostics: inout ImportDiagnostics) throws(ImportError) {
        if let failure = file.gzip?.failure { throw failure }
        let reason = status == PCAP_ERROR ? readerFailure ?? file.lastError : "pcap_next_ex returned \(status)"
        let stopped = recordOffset ?? file.position
        let rest: String
        if let stopped, let size = file.size, size >= stopped {
            rest = "the last \(size - stopped) of \(size) bytes (from byte \(stopped)) were not analysed"
        } else {
            rest = "the rest of the file was not analysed"
        }
        let location = stopped.map { "packet \(packets + 1), byte \($0)" } ?? "packet \(packets + 1)"
        if status == PCAP_ERROR, !Self.isCutShort(reason), !CaptureFile.isInterfaceLimit(reason) {
            throw .badData(
                path: file.path, location: location,
                reason: "damaged record after \(packets) packet(s) (libpcap: \(UntrustedText.quoted(reason, limit: 200))); "
                    + "Drain does not guess where the next record starts, so the capture is refused")
        }
        if CaptureFile.isInterfaceLimit(reason) {
            diagnostics.record(
                .error, code: "pcapng-interfaces",
                message: "libpcap, which Drain reads captures with, stopped after \(packets) packet(s) because it cannot read "
                    + "pcapng files whose interfaces have different link types or snapshot lengths (this valid file declares "
                    + "\(CaptureFile.describe(file.interfaces))); \(rest) (libpcap: \(reason))",
                location: location)
        } else {
            diagnostics.record(
                .error, code: "truncated",
                message: "the capture is cut short or damaged at packet \(packets + 1): libpcap stopped with "
                    + "\(UntrustedText.quoted(reason)) after \(packets) packet(s); \(rest)",
                location: location)
        }
    }

    /// Whether libpcap's reason says the file ended inside a record (`truncated dump file;
    /// tried to read …`, `truncated pcapng dump file; …`), as opposed to a record that is there
    /// but damaged.
    static func isCutShort(_ reason: String) -> Bool {
        reason.hasPrefix("truncated")
    }
}
