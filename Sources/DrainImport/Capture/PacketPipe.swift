import CMappedFile
import CPcap
import DrainTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Packets read, as a batch: their headers, and their captured bytes either where they lie in
/// a mapped file (`window`) or copied back to back by libpcap (`bytes`). Owned by one thread at
/// a time, handed over through ``PacketPipe``.
final class PacketBatch: @unchecked Sendable {
    struct Record {
        let seconds: Int64
        /// Nanoseconds within the second (the handle is opened with nanosecond precision).
        let fraction: Int64
        let captured: UInt32
        let length: UInt32
        /// Where the packet's bytes start in the batch's bytes (`withBytes`).
        let offset: Int
    }

    /// A record as the reading thread decoded it: the packet, or why its frame was not
    /// decoded.
    struct Decoded {
        var packet: DecodedPacket
        var problem: FrameProblem?
    }

    var records: [Record] = []
    /// The packets libpcap read, copied; unused while `window` is set.
    var bytes: [UInt8] = []
    /// The part of a mapped file the records lie in, when they were read in place.
    var window: UnsafeRawBufferPointer?
    /// The records' decodings, one per record, when the reading thread decoded them
    /// (`PacketPipe.DecodeOnRead`); empty when the decoding thread is left to decode them.
    var decoded: [Decoded] = []
    /// The file's bytes read when the batch was filled, for progress.
    var bytesRead: Int64?

    init(capacity: Int) {
        records.reserveCapacity(capacity / 64)
    }

    /// Calls `body` with the bytes the records' offsets point into.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let window { return body(window) }
        return bytes.withUnsafeBytes(body)
    }
}

/// A classic pcap file whose records `PacketPipe` can read in place: a regular, uncompressed
/// file in this machine's byte order, format version 2.4 or later (no swapped length fields, no
/// pseudo-headers libpcap rewrites), open in libpcap with its stream at the first record. The
/// pipe maps it when it reads it; a file read by libpcap alone is never mapped.
struct PcapRecordLayout {
    /// libpcap's stream, moved to where libpcap takes over; its descriptor is mapped, which
    /// leaves the stream's position alone.
    let stream: UnsafeMutablePointer<FILE>
    /// The file's size when it was opened: how much of it is mapped.
    let size: Int
    let firstRecord: Int64
    /// libpcap's snapshot length for the file (`pcap_snapshot`).
    let snapshot: UInt32
    /// Whether the time stamps' fractions are nanoseconds (else microseconds).
    let nanoseconds: Bool
}

/// libpcap's read loop on a thread of its own, a few batches ahead of the thread that decodes
/// the packets: reading (and, for gzip, inflating) a capture costs about as much as decoding
/// it and tracking its flows, and the two now overlap.
///
/// A ring of `slots` batches: the reader fills batch `produced % slots` while the decoder
/// empties batch `consumed % slots`, and each waits, under one mutex, only when the ring is
/// full or empty. The reader alone touches the pcap handle until its thread has been
/// joined; the stop status it ends on is read after `nextFilled` returned nil. Memory: `slots`
/// × `batchBytes` (of the mapped file, or copied by libpcap) plus the largest packet, and for
/// batches decoded on read about 100 bytes per packet of the batch (at most about 1.5 MiB for a
/// batch of the smallest frames), whatever the capture's size.
final class PacketPipe: @unchecked Sendable {
    static let slots = 4
    static let batchBytes = 1 << 20

    /// When the reading thread decodes a batch's packets itself before handing it over.
    enum DecodeOnRead {
        /// When the batch fills the ring: the decoding thread is the slower of the two (many
        /// small packets, each decoded and tracked) and the reader would otherwise wait for an
        /// empty batch. A packet is then decoded where its bytes were just read, in that core's
        /// cache; a reader that keeps up only reads.
        case whenBehind
        case always
        case never
    }

    private let batches: [PacketBatch]
    private let decoder: PacketDecoder
    private let decodeOnRead: DecodeOnRead
    /// The file whose records are read in place, mapped by the reader; kept as long as the
    /// pipe, which outlives every batch whose `window` points into it.
    private var mapping: MappedCapture?
    // At fixed heap addresses: a mutex or condition must not move once initialised, which a
    // Swift stored property does not promise.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var produced = 0
    private var consumed = 0
    private var finished = false
    /// `pcap_next_ex`'s status when the reader stopped (not 1).
    private(set) var stopStatus: Int32 = 0
    /// Why the reader stopped with `PCAP_ERROR` when the error is its own, not libpcap's.
    private(set) var failure: String?

    init(decoder: PacketDecoder, decodeOnRead: DecodeOnRead) {
        batches = (0..<Self.slots).map { _ in PacketBatch(capacity: Self.batchBytes) }
        self.decoder = decoder
        self.decodeOnRead = decodeOnRead
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// The reader's loop: fills batches from `handle` until `pcap_next_ex` stops; for a file
    /// whose records can be read in place (`layout`) and mapped, first straight from the
    /// mapping (`readInPlace`), handing the rest to libpcap where that stops.
    func read(_ handle: OpaquePointer, inPlace layout: PcapRecordLayout?, bytesRead: () -> Int64?) {
        if let layout, let mapped = MappedCapture(descriptor: fileno(layout.stream), size: layout.size) {
            mapping = mapped
            let resume = readInPlace(layout, from: mapped)
            guard fseeko(layout.stream, off_t(resume), SEEK_SET) == 0 else {
                failure = "error reading dump file: \(String(cString: strerror(errno)))"
                let batch = nextEmpty()
                batch.records.removeAll(keepingCapacity: true)
                publish(stoppedWith: PCAP_ERROR)
                return
            }
        }
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        while true {
            let batch = nextEmpty()
            batch.records.removeAll(keepingCapacity: true)
            batch.bytes.removeAll(keepingCapacity: true)
            batch.window = nil
            var status: Int32 = 1
            while batch.bytes.count < Self.batchBytes {
                status = pcap_next_ex(handle, &header, &data)
                guard status == 1, let header, let data else { break }
                let captured = Int(header.pointee.caplen)
                batch.records.append(
                    PacketBatch.Record(
                        seconds: Int64(header.pointee.ts.tv_sec), fraction: Int64(header.pointee.ts.tv_usec),
                        captured: header.pointee.caplen, length: header.pointee.len,
                        offset: batch.bytes.count))
                batch.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: captured))
            }
            batch.bytesRead = bytesRead()
            decodeIfBehind(batch)
            publish(stoppedWith: status == 1 ? nil : status)
            if status != 1 { return }
        }
    }

    /// Fills batches with whole records where they lie in the mapped file (no copy, where
    /// libpcap copies each packet three times), from `layout.firstRecord` for as long as each
    /// record is one libpcap would return unchanged: its header and captured bytes all there,
    /// its captured length within the snapshot length. Returns the offset of the first record
    /// it did not take — at the end of the file, before a record cut short, longer than the
    /// snapshot length or than a batch, or where the file was found to have shrunk — where
    /// libpcap goes on, reporting the end, the damage or the record as it would have. A batch
    /// handed back has been decoded, so when it is filled again the pages wholly before the end
    /// of its records are dropped. O(bytes read).
    private func readInPlace(_ layout: PcapRecordLayout, from mapping: MappedCapture) -> Int64 {
        let file = mapping.bytes
        var offset = Int(layout.firstRecord)
        while true {
            let batch = nextEmpty()
            if let done = batch.window { mapping.dropPages(through: done) }
            batch.records.removeAll(keepingCapacity: true)
            let available = UnsafeRawBufferPointer(rebasing: file[offset..<min(file.count, offset + Self.batchBytes)])
            let taken = Self.takeRecords(available, layout: layout, into: batch)
            guard taken > 0, !mapping.shrank else {
                // Nothing taken, or the file shrank: the batch goes back unpublished, empty, for
                // libpcap to fill.
                batch.records.removeAll(keepingCapacity: true)
                batch.window = nil
                return Int64(offset)
            }
            batch.window = UnsafeRawBufferPointer(rebasing: available[0..<taken])
            offset += taken
            batch.bytesRead = Int64(offset)
            decodeIfBehind(batch)
            publish(stoppedWith: nil)
        }
    }

    /// How far ahead of the record being read `takeRecords` asks for the mapped file's cache
    /// lines, in bytes.
    ///
    /// Why: each record header says where the next one starts, so reading the headers of a
    /// file that is in the page cache but not in the processor's caches waits for memory once
    /// per record, one load after the other; with records about 1 KB apart the hardware's own
    /// prefetcher does not see a stream. Asking for every line in order, a page ahead, turns the
    /// headers' chain of loads into loads of lines already on their way. On a 2-core AMD EPYC
    /// (docs/performance-captures.md, session 35) a run on the 1 GiB steady capture took
    /// 0.57–0.78× as long. Of 1, 2, 4, 8 and 32 KiB, 2 and 4 KiB were the fastest.
    static let prefetchDistance = 4096
    static let cacheLineBytes = 64

    /// Appends to `batch` the whole records at the start of `bytes` that libpcap would return
    /// unchanged (see `readInPlace`); returns how many bytes they take. Asks for the lines of
    /// `bytes` in order, `prefetchDistance` ahead of the records it reads.
    private static func takeRecords(_ bytes: UnsafeRawBufferPointer, layout: PcapRecordLayout, into batch: PacketBatch) -> Int {
        // Appended to while held here: an append to a class's array property also pays a
        // dynamic exclusivity check per record.
        var records: [PacketBatch.Record] = []
        swap(&records, &batch.records)
        defer { swap(&records, &batch.records) }
        let headerBytes = 16
        guard let base = bytes.baseAddress else { return 0 }
        var position = 0
        var prefetched = 0
        while position + headerBytes <= bytes.count {
            let ahead = min(position &+ Self.prefetchDistance, bytes.count)
            while prefetched < ahead {
                drain_prefetch(base + prefetched)
                prefetched &+= Self.cacheLineBytes
            }
            let captured = bytes.loadUnaligned(fromByteOffset: position + 8, as: UInt32.self)
            guard captured <= layout.snapshot, position + headerBytes + Int(captured) <= bytes.count else { break }
            // libpcap's header fields are signed 32-bit time stamps, widened with their sign;
            // microseconds are scaled to the nanoseconds the handle was opened with.
            let seconds = Int32(bitPattern: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self))
            let fraction = Int64(Int32(bitPattern: bytes.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self)))
            records.append(
                PacketBatch.Record(
                    seconds: Int64(seconds), fraction: layout.nanoseconds ? fraction : fraction * 1000, captured: captured,
                    length: bytes.loadUnaligned(fromByteOffset: position + 12, as: UInt32.self), offset: position + headerBytes))
            position += headerBytes + Int(captured)
        }
        return position
    }

    /// Decodes the records of `batch`, about to be handed over, on this thread when
    /// `decodeOnRead` asks for it; else leaves `decoded` empty. O(records).
    private func decodeIfBehind(_ batch: PacketBatch) {
        batch.decoded.removeAll(keepingCapacity: true)
        switch decodeOnRead {
        case .never: return
        case .always: break
        case .whenBehind:
            pthread_mutex_lock(mutex)
            let behind = produced - consumed >= Self.slots - 1
            pthread_mutex_unlock(mutex)
            guard behind else { return }
        }
        // Held here while filled, as `takeRecords` holds the records.
        var decoded: [PacketBatch.Decoded] = []
        swap(&decoded, &batch.decoded)
        defer { swap(&decoded, &batch.decoded) }
        decoded.reserveCapacity(batch.records.count)
        batch.withBytes { bytes in
            for record in batch.records {
                let captured = Int(record.captured)
                var packet = DecodedPacket()
                let problem = decoder.decode(
                    UnsafeRawBufferPointer(rebasing: bytes[record.offset..<(record.offset + captured)]),
                    wire: max(Int(record.length), captured), into: &packet)
                decoded.append(PacketBatch.Decoded(packet: packet, problem: problem))
            }
        }
    }

    private func nextEmpty() -> PacketBatch {
        pthread_mutex_lock(mutex)
        while produced - consumed == Self.slots { pthread_cond_wait(changed, mutex) }
        let batch = batches[produced % Self.slots]
        pthread_mutex_unlock(mutex)
        return batch
    }

    private func publish(stoppedWith status: Int32?) {
        pthread_mutex_lock(mutex)
        produced += 1
        if let status {
            stopStatus = status
            finished = true
        }
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The next filled batch, waiting for the reader; nil once the reader stopped and every
    /// batch was taken. Give it back with `release` before asking for the next.
    func nextFilled() -> PacketBatch? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while consumed == produced {
            if finished { return nil }
            pthread_cond_wait(changed, mutex)
        }
        return batches[consumed % Self.slots]
    }

    func release() {
        pthread_mutex_lock(mutex)
        consumed += 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
