import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// gzip-compressed Chrome traces, decompressed through zlib.
@Suite struct ChromeGzipTests {
    /// A trace of `count` slices on four threads with varied names, big enough to make gzip's
    /// 32 KiB window slide many times.
    static func bigTrace(_ count: Int) -> String {
        var text = "{\"traceEvents\":[\n"
        for index in 0..<count {
            text += #"{"ph":"X","name":"task \#(index % 97) \#(String(index * 7919, radix: 36))","pid":1,"tid":\#(index % 4),"ts":\#(index * 10).\#(index % 1000),"dur":\#(index % 9 + 1)},"#
            text += "\n"
        }
        text += #"{"ph":"M","name":"thread_name","pid":1,"tid":0,"args":{"name":"main"}}]}"#
        return text
    }

    /// `[X "stored" 0…5 µs, i "b" at 7 µs]` as written by zlib at level 0 (a stored block).
    static let storedBlock: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x03, 0x01, 0x68, 0x00, 0x97, 0xFF, 0x5B, 0x7B, 0x22,
        0x70, 0x68, 0x22, 0x3A, 0x22, 0x58, 0x22, 0x2C, 0x22, 0x6E, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0x22, 0x73, 0x74,
        0x6F, 0x72, 0x65, 0x64, 0x22, 0x2C, 0x22, 0x70, 0x69, 0x64, 0x22, 0x3A, 0x31, 0x2C, 0x22, 0x74, 0x69, 0x64,
        0x22, 0x3A, 0x31, 0x2C, 0x22, 0x74, 0x73, 0x22, 0x3A, 0x30, 0x2C, 0x22, 0x64, 0x75, 0x72, 0x22, 0x3A, 0x35,
        0x7D, 0x2C, 0x7B, 0x22, 0x70, 0x68, 0x22, 0x3A, 0x22, 0x69, 0x22, 0x2C, 0x22, 0x6E, 0x61, 0x6D, 0x65, 0x22,
        0x3A, 0x22, 0x62, 0x22, 0x2C, 0x22, 0x70, 0x69, 0x64, 0x22, 0x3A, 0x31, 0x2C, 0x22, 0x74, 0x69, 0x64, 0x22,
        0x3A, 0x31, 0x2C, 0x22, 0x74, 0x73, 0x22, 0x3A, 0x37, 0x7D, 0x5D, 0xAB, 0x4F, 0x81, 0x72, 0x68, 0x00, 0x00,
        0x00,
    ]

    /// The same trace as written by zlib with `Z_FIXED` (a fixed-Huffman block).
    static let fixedHuffman: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x8B, 0xAE, 0x56, 0x2A, 0xC8, 0x50, 0xB2, 0x52,
        0x8A, 0x50, 0xD2, 0x51, 0xCA, 0x4B, 0xCC, 0x4D, 0x05, 0x32, 0x8B, 0x4B, 0xF2, 0x8B, 0x52, 0x53, 0x80, 0xFC,
        0x82, 0xCC, 0x14, 0x25, 0x2B, 0x43, 0x1D, 0xA5, 0x12, 0x18, 0x5D, 0xAC, 0x64, 0x65, 0xA0, 0xA3, 0x94, 0x52,
        0x5A, 0xA4, 0x64, 0x65, 0x5A, 0xAB, 0x03, 0xD5, 0x99, 0x89, 0xD0, 0x99, 0x84, 0x43, 0x93, 0x79, 0x6D, 0x2C,
        0x00, 0xAB, 0x4F, 0x81, 0x72, 0x68, 0x00, 0x00, 0x00,
    ]

    static let smallExpected = [
        Row(kind: .cpu, time: 0, duration: 5_000, thread: "main", label: "stored"),
        Row(kind: .mark, time: 7_000, thread: "main", label: "b"),
    ]

    @Test(arguments: [storedBlock, fixedHuffman])
    func storedAndFixedHuffmanBlocks(bytes: [UInt8]) throws {
        let input = try importChrome(bytes: bytes)
        #expect(input.timeline.rows(.cpu, .mark) == Self.smallExpected)
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test func aBigCompressedTraceReadsLikeItsText() throws {
        let text = Self.bigTrace(20_000)
        let compressed = Gzip.compress(text)
        #expect(compressed.count * 4 < text.utf8.count, "the fixture compresses, so back-references are exercised")
        let plain = try importChrome(text)
        #expect(plain.timeline.count == 20_000)
        for chunkSize in [ChromeTraceImporter.defaultChunkSize, 4093] {
            let unpacked = try importChrome(bytes: compressed, chunkSize: chunkSize)
            #expect(unpacked.timeline.rows(.cpu, .mark) == plain.timeline.rows(.cpu, .mark))
            #expect(unpacked.info.diagnostics == plain.info.diagnostics)
        }
        // In memory too.
        let inMemory = try ChromeTraceImporter.read(bytes: compressed, path: "memory.json.gz")
        #expect(inMemory.timeline.count == 20_000)
    }

    @Test func membersOfAMultiMemberFileFollowEachOther() throws {
        let first = Gzip.compress(#"[{"ph":"X","name":"stored","pid":1,"tid":1,"ts":0,"dur":5},"#)
        let second = Gzip.compress(#"{"ph":"i","name":"b","pid":1,"tid":1,"ts":7}]"#)
        let input = try importChrome(bytes: first + second)
        #expect(input.timeline.rows(.cpu, .mark) == Self.smallExpected)
    }

    @Test func aDamagedChecksumIsBadDataAtItsByte() throws {
        var bytes = Self.fixedHuffman
        bytes[bytes.count - 8] ^= 0xFF
        let fixture = try TraceFixture(bytes: bytes, name: "trace.json.gz")
        defer { fixture.remove() }
        #expect(throws: ImportError.badData(
            path: fixture.path, location: "byte \(bytes.count - 8) of the compressed file",
            reason: "gzip: CRC-32 mismatch: the decompressed data is damaged")) {
            try ChromeTraceImporter.read(path: fixture.path)
        }
    }

    @Test func damagedHeadersAndBlocksAreBadDataAtTheirByte() throws {
        var method = Self.storedBlock
        method[2] = 7
        var blockType = Self.storedBlock
        blockType[10] = 0x07  // final block of type 3
        var storedLength = Self.storedBlock
        storedLength[13] = 0x00  // the complement no longer matches
        let cases: [([UInt8], String, String)] = [
            (method, "byte 4", "gzip: unknown compression method"),
            (blockType, "byte 11", "gzip: invalid block type"),
            (storedLength, "byte 15", "gzip: invalid stored block lengths"),
        ]
        for (bytes, location, reason) in cases {
            let fixture = try TraceFixture(bytes: bytes, name: "trace.json.gz")
            defer { fixture.remove() }
            #expect(throws: ImportError.badData(path: fixture.path, location: location + " of the compressed file", reason: reason)) {
                try ChromeTraceImporter.read(path: fixture.path)
            }
        }
    }

    @Test func aCutOffFileKeepsWhatDecompressedBeforeTheCut() throws {
        let text = Self.bigTrace(10_000)
        let compressed = Gzip.compress(text)
        let input = try importChrome(bytes: Array(compressed.prefix(compressed.count / 2)))
        #expect(input.timeline.count > 1_000)
        #expect(input.timeline.count < 10_000)
        #expect(input.info.diagnostics.entry("gzip-truncated")?.severity == .warning)
        #expect(input.info.diagnostics.entry("truncated")?.severity == .warning)
    }

    @Test func detectionLooksInsideGzip() throws {
        let chrome = try TraceFixture(bytes: Self.fixedHuffman, name: "a.gz")
        defer { chrome.remove() }
        #expect(try InputFormat.detect(path: chrome.path) == .chromeTrace)
        #expect(try Importers.read(path: chrome.path, inputIndex: 0).timeline.rows(.cpu, .mark) == Self.smallExpected)

        let other = try TraceFixture(bytes: Gzip.compress(#"{"name":"x"}"#), name: "b.gz")
        defer { other.remove() }
        #expect(throws: ImportError.unknownFormat(path: other.path, reason: #"gzip-compressed: a JSON object that is not a Drain trace (no drain_trace header), a Chrome trace (no traceEvents) or a MetricKit payload; it starts with "{\"name\":\"x\"}""#)) {
            try InputFormat.detect(path: other.path)
        }
    }
}
