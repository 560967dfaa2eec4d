import CPcap
import DrainTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Packets libpcap read, copied into a batch: their headers and their captured bytes, back to
/// back. Owned by one thread at a time, handed over through ``PacketPipe``.
final class PacketBatch: @unchecked Sendable {
    struct Record {
        let seconds: Int64
        /// Nanoseconds within the second (the handle is opened with nanosecond precision).
        let fraction: Int64
        let captured: UInt32
        let length: UInt32
        /// Where the packet's bytes start in `bytes`.
        let offset: Int
    }

    var records: [Record] = []
    var bytes: [UInt8] = []
    /// The file's bytes read when the batch was filled, for progress.
    var bytesRead: Int64?

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        records.reserveCapacity(capacity / 64)
    }
}

/// libpcap's read loop on a thread of its own, a few batches ahead of the thread that decodes
/// the packets: reading (and, for gzip, inflating) a capture costs about as much as decoding
/// it and tracking its flows, and the two now overlap.
///
/// A ring of `slots` batches: the reader fills batch `produced % slots` while the decoder
/// empties batch `consumed % slots`, and each waits, under one mutex, only when the ring is
/// full or empty. The reader alone touches the pcap handle until its thread has been
/// joined; the stop status it ends on is read after `nextFilled` returned nil. Memory: `slots` × `batchBytes` plus the
/// largest packet, whatever the capture's size.
final class PacketPipe: @unchecked Sendable {
    static let slots = 4
    static let batchBytes = 1 << 20

    private let batches: [PacketBatch]
    // At fixed heap addresses: a mutex or condition must not move once initialised, which a
    // Swift stored property does not promise.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var produced = 0
    private var consumed = 0
    private var finished = false
    /// `pcap_next_ex`'s status when the reader stopped (not 1).
    private(set) var stopStatus: Int32 = 0

    init() {
        batches = (0..<Self.slots).map { _ in PacketBatch(capacity: Self.batchBytes) }
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// The reader's loop: fills batches from `handle` until `pcap_next_ex` stops.
    func read(_ handle: OpaquePointer, bytesRead: () -> Int64?) {
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        while true {
            let batch = nextEmpty()
            batch.records.removeAll(keepingCapacity: true)
            batch.bytes.removeAll(keepingCapacity: true)
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
            publish(stoppedWith: status == 1 ? nil : status)
            if status != 1 { return }
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
