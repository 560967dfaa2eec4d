import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// A capture read ahead on a thread of its own (`PacketPipe`) must import exactly as one read
/// on this thread: the same rows in the same order (string ids included), strings, flows,
/// diagnostics and errors, whatever the file holds and wherever it ends.
@Suite struct CaptureReadAheadTests {
    static func read(
        _ path: String, readAhead: CaptureOptions.ReadAhead, decodeOnRead: PacketPipe.DecodeOnRead = .whenBehind,
        progress: ImportProgress? = nil
    ) throws -> ImportedInput {
        var options = CaptureOptions(progress: progress)
        options.readAhead = readAhead
        options.decodeOnRead = decodeOnRead
        return try CaptureImporter.read(path: path, inputIndex: 0, options: options)
    }

    static func expectSame(_ ahead: ImportedInput, _ here: ImportedInput, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let timeline = ahead.timeline, expected = here.timeline
        #expect(timeline.count == expected.count, "\(name): rows", sourceLocation: sourceLocation)
        var differing = 0
        for row in 0..<min(timeline.count, expected.count) where timeline[row] != expected[row] { differing += 1 }
        #expect(differing == 0, "\(name): \(differing) rows differ", sourceLocation: sourceLocation)
        #expect(timeline.strings.count == expected.strings.count, "\(name): strings", sourceLocation: sourceLocation)
        let sameStrings = (0..<min(timeline.strings.count, expected.strings.count)).allSatisfy {
            timeline.strings[StringID($0)] == expected.strings[StringID($0)]
        }
        #expect(sameStrings, "\(name): string texts", sourceLocation: sourceLocation)
        #expect(timeline.flows.count == expected.flows.count, "\(name): flows", sourceLocation: sourceLocation)
        let sameFlows = (0..<min(timeline.flows.count, expected.flows.count)).allSatisfy { timeline.flows[$0] == expected.flows[$0] }
        #expect(sameFlows, "\(name): flow values", sourceLocation: sourceLocation)
        #expect(timeline.end == expected.end, "\(name): end", sourceLocation: sourceLocation)
        #expect(ahead.info == here.info, "\(name): input info and diagnostics", sourceLocation: sourceLocation)
    }

    /// Read ahead — with every packet decoded by the reading thread, and with none (or only
    /// the ways given) — and on this thread: the same import, or the same error, every way.
    static func compare(
        _ path: String, _ name: String, decodeOnRead ways: [PacketPipe.DecodeOnRead] = [.always, .never],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let here = Result { try read(path, readAhead: .never) }
        for decodeOnRead in ways {
            let ahead = Result { try read(path, readAhead: .always, decodeOnRead: decodeOnRead) }
            let way = "\(name), decoded on read \(decodeOnRead)"
            switch (ahead, here) {
            case let (.success(ahead), .success(here)):
                expectSame(ahead, here, way, sourceLocation: sourceLocation)
            case let (.failure(ahead), .failure(here)):
                #expect(String(describing: ahead) == String(describing: here), "\(way): errors", sourceLocation: sourceLocation)
            default:
                Issue.record("\(way): read ahead \(ahead), here \(here)", sourceLocation: sourceLocation)
            }
        }
    }

    static let corpusCaptures = Corpus.files(in: "pcap")

    @Test func theCorpusHasCaptures() {
        #expect(Self.corpusCaptures.count > 20)
    }

    /// Each corpus capture on its own, so that they share the cores; every other one has
    /// every batch decoded on read, the others none (the generated captures below are read
    /// both ways).
    @Test(arguments: zip(corpusCaptures, corpusCaptures.indices.map { $0 % 2 == 0 ? PacketPipe.DecodeOnRead.always : .never }))
    func everyCorpusCaptureReadsTheSameAhead(file: URL, decodeOnRead: PacketPipe.DecodeOnRead) {
        Self.compare(file.path, file.lastPathComponent, decodeOnRead: [decodeOnRead])
    }

    /// About 9 MiB — nine batches through a ring of four — of HTTPS polls, plain HTTP
    /// exchanges, DNS and bulk downloads over many connections, a few packets out of order.
    static func manyBatches() -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType, precision: .nanoseconds)
        var time: Int64 = 1_700_000_000_000_000_000
        var index = 0
        while writer.bytes.count < 9 << 20 {
            let port = UInt16(40000 + index % 3000)
            let server = "203.0.113.\(1 + index % 200)"
            time += Int64(1 + (index % 97) * 400_000)
            let packet: [UInt8]
            switch index % 6 {
            case 0:
                packet = IPPacket.udp(from: deviceV4, port, to: "192.0.2.53", 53, Array("query \(index % 50).example".utf8))
            case 1:
                packet = IPPacket.tcp(
                    from: deviceV4, port, to: server, 80, seq: UInt32(index), flags: IPPacket.ack | IPPacket.psh,
                    Array("GET /items/\(index) HTTP/1.1\r\nHost: api\(index % 40).example\r\nAccept: */*\r\n\r\n".utf8))
            case 2:
                packet = IPPacket.tcp(
                    from: server, 443, to: deviceV4, port, seq: UInt32(index), flags: IPPacket.ack,
                    [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 1400))
            case 3:
                packet = IPPacket.tcp(from: deviceV4, port, to: server, 443, seq: UInt32(index), flags: index % 60 == 3 ? IPPacket.fin | IPPacket.ack : IPPacket.ack)
            case 4:
                packet = IPPacket.tcp(
                    from: server, 80, to: deviceV4, port, seq: UInt32(index), flags: IPPacket.ack | IPPacket.psh,
                    Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8))
            default:
                packet = IPPacket.udp(from: deviceV4, port, to: server, 443, [UInt8](repeating: 0xC3, count: 1200))
            }
            // Every 5,000th packet is stamped 2 s early: out of order.
            writer.add(nanoseconds: index % 5000 == 4999 ? time - 2_000_000_000 : time, Frame.ethernet(packet))
            index += 1
        }
        return writer.bytes
    }

    @Test func aCaptureOfManyBatchesReadsTheSameAheadAndReportsProgress() throws {
        let bytes = Self.manyBatches()
        try withTemporaryFile(bytes, name: "many.pcap") { path in
            let aheadProgress = ProgressLog(), hereProgress = ProgressLog()
            let ahead = try Self.read(path, readAhead: .always, progress: { aheadProgress.add($0) })
            let here = try Self.read(path, readAhead: .never, progress: { hereProgress.add($0) })
            Self.expectSame(ahead, here, "many batches")
            #expect(ahead.timeline.count > 10_000)
            // One call per 8,192 packets either way; read ahead, the bytes are those read when
            // the packet's batch was filled (up to one batch ahead).
            let packets = bytes.count / 700
            #expect(aheadProgress.values.count == hereProgress.values.count)
            #expect(aheadProgress.values.count >= packets / 8192 / 2)
            #expect(aheadProgress.values == aheadProgress.values.sorted())
            for (ahead, here) in zip(aheadProgress.values, hereProgress.values) {
                #expect(ahead >= here && ahead <= here + Int64(PacketPipe.batchBytes) + 65_536)
            }
        }
    }

    @Test func aCaptureCutShortInsideARecordReadsTheSameAhead() throws {
        let bytes = Self.manyBatches()
        // Cut 6.5 MiB in: inside a record, past the first trip round the ring.
        try withTemporaryFile(Array(bytes[0..<(13 << 19) + 7]), name: "cut.pcap") { path in
            Self.compare(path, "cut short")
            let here = try Self.read(path, readAhead: .never)
            #expect(here.info.diagnostics.entries.contains { $0.code == "truncated" })
        }
    }

    @Test func aGzipCaptureReadsTheSameAhead() throws {
        try withTemporaryFile(Gzip.compress(Self.manyBatches(), level: 1), name: "many.pcap.gz") { path in
            Self.compare(path, "gzip")
        }
    }

    /// Read ahead, a classic pcap file in this machine's byte order has its records read in
    /// place (`PcapRecordLayout`) for as long as libpcap would return them unchanged; the
    /// record where that stops, and everything after it, is libpcap's. Each such stop reads
    /// as libpcap alone reads it.
    @Test func recordsLeftToLibpcapReadTheSameAhead() throws {
        func frame(_ index: Int, size: Int) -> [UInt8] {
            Frame.ethernet(IPPacket.udp(from: deviceV4, UInt16(40000 + index % 500), to: "203.0.113.9", 443, [UInt8](repeating: 0xC3, count: size)))
        }
        // Longer than the snapshot length, 3 MiB in: libpcap keeps the first 300 bytes of it.
        var longer = PcapWriter(linkType: Frame.ethernetType, snapLength: 300, precision: .nanoseconds)
        for index in 0..<14_000 { longer.add(nanoseconds: 1_700_000_000_000_000_000 + Int64(index) * 1_000_000, frame(index, size: index == 12_000 ? 1_000 : 200)) }
        try withTemporaryFile(longer.bytes, name: "longer.pcap") { Self.compare($0, "a record longer than the snapshot length") }

        // A record claiming more than libpcap's maximum for Ethernet, 2 MiB in: refused.
        var damaged = PcapWriter(linkType: Frame.ethernetType)
        for index in 0..<9_000 { damaged.add(at: 1_700_000_000 + Double(index) / 100, frame(index, size: 200)) }
        let cut = damaged.bytes.count
        try withTemporaryFile(damaged.bytes + [0, 0, 0, 0x65, 0, 0, 0, 0] + [0, 0, 8, 0] + [0, 0, 8, 0] + [UInt8](repeating: 0, count: 64), name: "damaged.pcap") { path in
            Self.compare(path, "a damaged record")
            #expect(throws: ImportError.self) { try Self.read(path, readAhead: .always) }
        }
        #expect(cut > 2 << 20)

        // Microsecond time stamps, and files libpcap alone reads: the other byte order, version 2.3.
        var micro = PcapWriter(linkType: Frame.ethernetType, precision: .microseconds)
        var big = PcapWriter(linkType: Frame.ethernetType, precision: .nanoseconds, byteOrder: .big)
        for index in 0..<20_000 {
            micro.add(at: 1_700_000_000 + Double(index) * 0.000_731, frame(index, size: 300))
            big.add(nanoseconds: 1_700_000_000_000_000_000 + Int64(index) * 731_000, frame(index, size: 300))
        }
        var old = micro.bytes
        old[6] = 3
        for (bytes, name) in [(micro.bytes, "microseconds"), (big.bytes, "big-endian"), (old, "version 2.3")] {
            try withTemporaryFile(bytes, name: "\(name).pcap") { Self.compare($0, name) }
        }
    }

    /// Which files have their records read in place: classic pcap in this machine's byte
    /// order, version 2.4, uncompressed; nothing else. Opening one maps nothing: the reading
    /// thread maps the file when it reads it ahead.
    @Test func onlyClassicPcapInThisByteOrderIsReadInPlace() throws {
        let packet = Frame.ethernet(IPPacket.udp(from: deviceV4, 40000, to: "203.0.113.9", 443, [1, 2, 3]))
        func layout(_ bytes: [UInt8], name: String) throws -> PcapRecordLayout? {
            try withTemporaryFile(bytes, name: name) { path in
                let file = try CaptureFile(path: path)
                #expect(residentKiB { $0.hasSuffix(" \(path)") } == nil, "\(name) is mapped at open")
                return file.inPlaceRecords
            }
        }
        for precision in [PcapWriter.Precision.microseconds, .nanoseconds] {
            var writer = PcapWriter(linkType: Frame.ethernetType, snapLength: 1_500, precision: precision)
            writer.add(at: 1_700_000_000, packet)
            let found = try #require(try layout(writer.bytes, name: "little.pcap"))
            #expect(found.firstRecord == 24 && found.snapshot == 1_500 && found.nanoseconds == (precision == .nanoseconds))
            var old = writer.bytes
            old[6] = 3
            #expect(try layout(old, name: "old.pcap") == nil)
            #expect(try layout(Gzip.compress(writer.bytes, level: 1), name: "little.pcap.gz") == nil)
            var big = PcapWriter(linkType: Frame.ethernetType, precision: precision, byteOrder: .big)
            big.add(at: 1_700_000_000, packet)
            #expect(try layout(big.bytes, name: "big.pcap") == nil)
        }
        var pcapng = PcapngWriter()
        pcapng.addInterface(linkType: UInt16(Frame.ethernetType))
        #expect(try layout(pcapng.bytes, name: "capture.pcapng") == nil)
    }

    /// Progress values, from whichever thread reports them.
    final class ProgressLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Int64] = []
        func add(_ value: Int64) { lock.withLock { stored.append(value) } }
        var values: [Int64] { lock.withLock { stored } }
    }
}
