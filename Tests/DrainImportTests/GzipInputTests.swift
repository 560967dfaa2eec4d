import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// Everything an import gives, in a form that compares: the info (without its path), every
/// column, the strings, the flows and the aggregates.
struct ImportSnapshot: Equatable {
    var info: InputInfo
    var time: [Nanoseconds]
    var kind: [EventKind]
    var thread: [StringID]
    var code: [UInt8]
    var code2: [UInt8]
    var amount: [Int64]
    var amount2: [Int64]
    var duration: [Nanoseconds]
    var value: [Double]
    var value2: [Double]
    var label: [StringID]
    var label2: [StringID]
    var strings: [String]
    var flows: [FlowTable.Flow]
    var wallClockStart: Int64?
    var end: Nanoseconds
    var aggregates: MetricAggregates?

    init(_ input: ImportedInput) {
        let timeline = input.timeline
        info = input.info.with(path: "")
        time = timeline.time
        kind = timeline.kind
        thread = Array(timeline.thread)
        code = timeline.code
        code2 = timeline.code2
        amount = Array(timeline.amount)
        amount2 = Array(timeline.amount2)
        duration = Array(timeline.duration)
        value = Array(timeline.value)
        value2 = Array(timeline.value2)
        label = timeline.label
        label2 = Array(timeline.label2)
        strings = (0..<timeline.strings.count).map { timeline.strings[StringID($0)] }
        flows = (0..<timeline.flows.count).map { timeline.flows[$0] }
        wallClockStart = timeline.wallClockStart
        end = timeline.end
        aggregates = timeline.aggregates
    }
}

/// The outcome of `Importers.read` with the file's path taken out, so that a plain file and
/// its compressed copy compare.
enum ImportOutcome: Equatable {
    case imported(ImportSnapshot)
    case failed(ImportError)

    init(path: String, progress: ImportProgress? = nil) {
        do {
            self = .imported(ImportSnapshot(try Importers.read(path: path, inputIndex: 0, progress: progress)))
        } catch {
            switch error {
            case let .unreadable(_, reason): self = .failed(.unreadable(path: "", reason: reason))
            case let .badData(_, location, reason): self = .failed(.badData(path: "", location: location, reason: reason))
            case let .unknownFormat(_, reason): self = .failed(.unknownFormat(path: "", reason: reason))
            }
        }
    }

    /// What reading the file gzip-compressed gives instead: the size of the decompressed data
    /// is unknown until its end, so a capture that libpcap stops reading early cannot say how
    /// many bytes were left; a format that is not recognised is named as compressed.
    func compressed() throws -> ImportOutcome {
        switch self {
        case let .failed(.unknownFormat(path, reason)):
            return .failed(.unknownFormat(path: path, reason: "gzip-compressed: " + reason))
        case .failed:
            return self
        case var .imported(snapshot):
            let left = try Regex(#"the last \d+ of \d+ bytes \(from byte \d+\) were not analysed"#)
            var diagnostics = ImportDiagnostics()
            for entry in snapshot.info.diagnostics.entries {
                diagnostics.record(
                    entry.severity, code: entry.code,
                    message: entry.message.replacing(left, with: "the rest of the file was not analysed"),
                    location: entry.location, count: entry.count)
            }
            snapshot.info.diagnostics = diagnostics
            return .imported(snapshot)
        }
    }
}

/// gzip-compressed inputs of every format, decompressed through zlib as they are read.
@Suite struct GzipInputTests {
    /// Writes `bytes` gzip-compressed to `name` in a fresh directory, runs `body` with its path.
    func withCompressed<T>(_ bytes: [UInt8], name: String, level: Int32 = 6, _ body: (String) throws -> T) throws -> T {
        try withTemporaryFile(Gzip.compress(bytes, level: level), name: name, body)
    }

    func contents(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    /// The sample Drain trace of the repository and every corpus file of the text formats.
    static var textFiles: [URL] {
        [Repository.root.appendingPathComponent("samples/app-session.jsonl")] + Corpus.files(in: "strace")
            + Corpus.files(in: "chrome-trace") + Corpus.files(in: "metrickit")
    }

    @Test("every text input reads the same gzip-compressed: format, events, diagnostics, or the same error")
    func textFormats() throws {
        let files = Self.textFiles
        #expect(files.count > 45)
        var formats: Set<String> = []
        for file in files {
            let plain = ImportOutcome(path: file.path)
            if case let .imported(snapshot) = plain { formats.insert(snapshot.info.format) }
            let compressed = try withCompressed(try contents(file), name: file.lastPathComponent + ".gz") {
                ImportOutcome(path: $0)
            }
            #expect(compressed == plain, "\(file.lastPathComponent)")
        }
        #expect(formats == ["drain-trace", "strace", "chrome-trace", "metrickit"])
    }

    @Test("every corpus capture analyses the same gzip-compressed (nanosecond, big-endian, damaged ones too) or fails the same")
    func captures() throws {
        let files = Corpus.files(in: "pcap")
        #expect(files.count > 40)
        var packets: [String: Int] = [:]
        for file in files {
            let plain = ImportOutcome(path: file.path)
            if case let .imported(snapshot) = plain { packets[file.lastPathComponent] = snapshot.info.packets }
            let compressed = try withCompressed(try contents(file), name: file.lastPathComponent + ".gz") {
                ImportOutcome(path: $0)
            }
            #expect(compressed == (try plain.compressed()), "\(file.lastPathComponent)")
        }
        #expect(packets["ndpi__iphone.pcap"] == 500)
        #expect(packets["ndpi__sites.pcapng"] == 699)
        #expect(packets["tcpdump__tcp-handshake-nano.pcap"] != nil)
        #expect(packets.count > 30)
    }

    @Test("every corpus file is detected as the same format compressed as plain")
    func detection() throws {
        for folder in ["pcap", "strace", "chrome-trace", "metrickit"] {
            for file in Corpus.files(in: folder) {
                let plain = Result { () throws(ImportError) in try InputFormat.detect(path: file.path) }
                let compressed = try withCompressed(try contents(file), name: "input.gz", level: 1) { path in
                    Result { () throws(ImportError) in try InputFormat.detect(path: path) }
                }
                switch (plain, compressed) {
                case let (.success(expected), .success(found)):
                    #expect(found == expected, "\(file.lastPathComponent)")
                case let (.failure(.unknownFormat(_, expected)), .failure(.unknownFormat(_, found))):
                    #expect(found == "gzip-compressed: " + expected, "\(file.lastPathComponent)")
                default:
                    Issue.record("\(file.lastPathComponent): \(plain) plain, \(compressed) compressed")
                }
            }
        }
    }

    @Test("a multi-member file (cat a.gz b.gz) reads as the concatenation, members split anywhere")
    func multiMember() throws {
        let trace = try contents(Repository.root.appendingPathComponent("samples/app-session.jsonl"))
        let capture = try contents(Corpus.root.appendingPathComponent("pcap/ndpi__iphone.pcap"))
        for (bytes, name) in [(trace, "trace.jsonl.gz"), (capture, "capture.pcap.gz")] {
            let plain = try withTemporaryFile(bytes, name: "plain") { ImportOutcome(path: $0) }
            // Cuts inside a line, inside a packet record, and a member of one byte.
            for cuts in [[bytes.count / 3], [1, 12_345, bytes.count / 2]] {
                var members: [UInt8] = []
                for (start, end) in zip([0] + cuts, cuts + [bytes.count]) {
                    members += Gzip.compress(Array(bytes[start..<end]))
                }
                let compressed = try withTemporaryFile(members, name: name) { ImportOutcome(path: $0) }
                #expect(compressed == plain, "\(name) cut at \(cuts)")
            }
        }
    }

    @Test("a damaged CRC-32 is bad data at the byte of the checksum, for a line format too")
    func damagedChecksum() throws {
        var bytes = Gzip.compress(header + "\n" + #"{"t":0,"type":"memory_warning"}"# + "\n")
        bytes[bytes.count - 8] ^= 0x01
        _ = try withTemporaryFile(bytes, name: "trace.jsonl.gz") { path in
            #expect(throws: ImportError.badData(
                path: path, location: "byte \(bytes.count - 8) of the compressed file",
                reason: "gzip: CRC-32 mismatch: the decompressed data is damaged")) {
                try Importers.read(path: path, inputIndex: 0)
            }
        }
        var length = Gzip.compress("1795311592.347824 brk(NULL) = 0x56129f263000\n")
        length[length.count - 4] ^= 0x01
        _ = try withTemporaryFile(length, name: "trace.strace.gz") { path in
            #expect(throws: ImportError.badData(
                path: path, location: "byte \(length.count - 4) of the compressed file",
                reason: "gzip: length mismatch: the decompressed data is not as long as the member's trailer says")) {
                try Importers.read(path: path, inputIndex: 0)
            }
        }
    }

    /// `count` Ethernet TCP packets of 200 bytes of payload, 1 ms apart, on two flows.
    static func bigCapture(_ count: Int, variant: PcapWriter.Variant = .standard, byteOrder: PcapWriter.ByteOrder = .little)
        -> PcapWriter
    {
        var writer = PcapWriter(linkType: Frame.ethernetType, byteOrder: byteOrder, variant: variant)
        let payload = [UInt8](repeating: 0x61, count: 200)
        for index in 0..<count {
            let port = UInt16(50000 + index % 2)
            let packet = IPPacket.tcp(from: deviceV4, port, to: serverV4, 443, seq: UInt32(1 + 200 * (index / 2)), payload)
            writer.add(nanoseconds: 1_700_000_000_000_000_000 + Int64(index) * 1_000_000, Frame.ethernet(packet))
        }
        return writer
    }

    /// The offset of the second stored block of gzip data written at level 0 (stored blocks:
    /// a header byte, then LEN and NLEN, then LEN bytes).
    static func secondStoredBlock(_ gzip: [UInt8]) -> Int {
        let length = Int(gzip[11]) | Int(gzip[12]) << 8
        return 10 + 5 + length
    }

    @Test("damaged deflate data part-way through a capture is bad data at its compressed byte, not a cut-off capture")
    func damagedCaptureData() throws {
        let bytes = Self.bigCapture(2_000).bytes
        var compressed = Gzip.compress(bytes, level: 0)
        let second = Self.secondStoredBlock(compressed)
        #expect(second > 10_000 && second < compressed.count - 10_000, "the damage is part-way")
        compressed[second + 3] ^= 0xFF  // NLEN no longer complements LEN
        _ = try withTemporaryFile(compressed, name: "capture.pcap.gz") { path in
            #expect(throws: ImportError.badData(
                path: path, location: "byte \(second + 5) of the compressed file", reason: "gzip: invalid stored block lengths")) {
                try Importers.read(path: path, inputIndex: 0)
            }
        }
    }

    @Test("a damaged gzip header is bad data, found while detecting the format")
    func damagedHeader() throws {
        var bytes = Gzip.compress(try contents(Corpus.root.appendingPathComponent("pcap/ndpi__iphone.pcap")))
        bytes[3] = 0xE0  // reserved flags
        _ = try withTemporaryFile(bytes, name: "capture.pcap.gz") { path in
            #expect(throws: ImportError.badData(path: path, location: "byte 4 of the compressed file", reason: "gzip: unknown header flags set")) {
                try Importers.read(path: path, inputIndex: 0)
            }
        }
    }

    @Test("other data after the last member is bad data at its first byte")
    func trailingData() throws {
        let member = Gzip.compress(header + "\n")
        _ = try withTemporaryFile(member + Array("junk".utf8), name: "trace.jsonl.gz") { path in
            #expect(throws: ImportError.badData(
                path: path, location: "byte \(member.count) of the compressed file",
                reason: "gzip: other data after the compressed data, not a gzip member")) {
                try Importers.read(path: path, inputIndex: 0)
            }
        }
    }

    @Test("a cut-off compressed trace is a cut-off trace: the events before the cut, and a warning")
    func cutOffTrace() throws {
        let text = try contents(Repository.root.appendingPathComponent("samples/app-session.jsonl"))
        let whole = try withTemporaryFile(text, name: "plain.jsonl") { try Importers.read(path: $0, inputIndex: 0) }
        let compressed = Gzip.compress(text)
        let cut = Array(compressed.prefix(compressed.count / 2))
        let input = try withTemporaryFile(cut, name: "trace.jsonl.gz") { try Importers.read(path: $0, inputIndex: 0) }
        #expect(input.timeline.count > whole.timeline.count / 4)
        #expect(input.timeline.count < whole.timeline.count)
        #expect(input.timeline.time == Array(whole.timeline.time.prefix(input.timeline.count)))
        let warning = try #require(input.info.diagnostics.entries.first { $0.code == "gzip-truncated" })
        #expect(warning.severity == .warning)
        #expect(warning.location == "byte \(cut.count) of the compressed file")
    }

    @Test("a cut-off compressed capture is analysed up to the cut, like a cut-off capture")
    func cutOffCapture() throws {
        let bytes = Self.bigCapture(2_000).bytes
        let compressed = Gzip.compress(bytes, level: 0)
        #expect(Self.secondStoredBlock(compressed) > 50_000)
        let input = try withTemporaryFile(Array(compressed.prefix(50_000)), name: "capture.pcap.gz") {
            try Importers.read(path: $0, inputIndex: 0)
        }
        // 50 000 compressed bytes hold the gzip header and one stored block's header (15
        // bytes), then the file header and records of 16 + 254 bytes.
        let packets = try #require(input.info.packets)
        #expect(packets == (50_000 - 15 - 24) / 270)
        let codes = input.info.diagnostics.entries.map(\.code)
        #expect(codes.contains("gzip-truncated"))
        let truncated = try #require(input.info.diagnostics.entries.first { $0.code == "truncated" })
        #expect(truncated.severity == .error)
        #expect(truncated.location == "packet \(packets + 1), byte \(24 + 270 * packets)")
    }

    @Test("progress counts compressed bytes, up to the compressed file's size")
    func progress() throws {
        let text = try contents(Repository.root.appendingPathComponent("samples/app-session.jsonl"))
        var reports: [Int64] = []
        let compressed = Gzip.compress(text)
        _ = try withTemporaryFile(compressed, name: "trace.jsonl.gz") { path in
            try Importers.read(path: path, inputIndex: 0, progress: { reports.append($0) })
        }
        #expect(reports.last == Int64(compressed.count))
        #expect(reports == reports.sorted())

        var captureReports: [Int64] = []
        let capture = Gzip.compress(Self.bigCapture(20_000).bytes, level: 1)
        _ = try withTemporaryFile(capture, name: "capture.pcap.gz") { path in
            try Importers.read(path: path, inputIndex: 0, progress: { captureReports.append($0) })
        }
        #expect(captureReports.count == 2)
        #expect(captureReports.allSatisfy { $0 > 0 && $0 <= Int64(capture.count) })
        #expect(captureReports == captureReports.sorted())
    }

    @Test("compressed data that holds nothing is named so")
    func empty() throws {
        _ = try withTemporaryFile(Gzip.compress([]), name: "empty.gz") { path in
            #expect(throws: ImportError.unknownFormat(path: path, reason: "the file is gzip-compressed and holds no data")) {
                try Importers.read(path: path, inputIndex: 0)
            }
        }
    }
}
