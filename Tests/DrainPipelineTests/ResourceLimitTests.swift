import DrainTestSupport
import Foundation
import Testing

/// Hostile inputs built to exhaust memory or time end in exit 65 with a message naming the
/// file and the position, within a bounded peak resident size, and write no report.
///
/// Each case runs the `drain` executable with its data memory capped (`RLIMIT_DATA`): an
/// allocation beyond the cap would kill it, so exit 65 with the message proves the bound.
/// The caps are those docs/reports.md states: 256 MiB for the line and whole-file limits
/// (a 64 MiB line buffer, doubled while it grows), 512 MiB for a Chrome trace's 128 MiB
/// single-value window.
///
/// Not under a sanitizer (`scripts/sanitize`): `RLIMIT_DATA` counts the sanitizer's shadow
/// memory, terabytes of reserved address space, so no cap would let the instrumented `drain`
/// start.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["DRAIN_TEST_SANITIZER"] == nil))
struct ResourceLimitTests {
    static let lineBound = 256 << 20
    static let chromeBound = 512 << 20
    /// Generous for a debug build on a loaded machine; what it guards against is minutes.
    static let timeBound = 60.0

    let header = #"{"drain_trace":1,"process":"x","pid":1,"device":"iphone-lte","start":"2026-11-22T10:00:00.000Z"}"#

    /// Runs `drain analyze INPUT… --json report.json` and checks the refusal.
    private func expectRefused(
        _ arguments: [String], in directory: URL, bound: Int = lineBound, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let report = directory.appendingPathComponent("report.json")
        let result = try DrainCommand.runLimited(["analyze"] + arguments + ["--json", report.path], limits: [.data(bound)], scratch: directory)
        #expect(result.status == 65, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains(message), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.seconds < Self.timeBound, "\(result.seconds) s", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: report.path), sourceLocation: sourceLocation)
    }

    /// A file of `prefix` followed by zero bytes up to `size` bytes, without writing them:
    /// the file system stores the zeros as a hole.
    private func sparseFile(_ name: String, prefix: String, size: Int64, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try prefix.write(to: url, atomically: false, encoding: .utf8)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return url
    }

    @Test func aOneGigabyteLineIsRefusedAtItsLineWithin64MiBOfBuffer() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try sparseFile(
            "long-line.jsonl", prefix: header + "\n" + #"{"t":0,"type":"cpu","dur":1,"name":""#, size: 1 << 30, in: directory)
        try expectRefused([trace.path], in: directory, message: "long-line.jsonl: line 2, column 1: line is longer than 64 MiB")
    }

    @Test func aPcapRecordClaiming2GiBIsRefusedAtItsByte() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for index in 0..<2 {
            writer.add(at: 1_700_000_000 + Double(index), Frame.ethernet(IPPacket.tcp(from: "192.168.1.2", 50000, to: "93.184.216.34", 443, seq: 1, flags: IPPacket.syn)))
        }
        // Two 54-byte frames: records of 16 + 54 bytes after the 24-byte header; the third
        // record starts at 24 + 2 × 70 = 164 and claims 2^31 captured bytes.
        var bytes = writer.bytes
        #expect(bytes.count == 164)
        bytes += [0x00, 0xF1, 0x53, 0x65, 0, 0, 0, 0] + [0, 0, 0, 0x80] + [0, 0, 0, 0x80] + [UInt8](repeating: 0, count: 64)
        let capture = directory.appendingPathComponent("huge-record.pcap")
        try Data(bytes).write(to: capture)
        try expectRefused(
            [capture.path], in: directory,
            message: "huge-record.pcap: packet 3, byte 164: damaged record after 2 packet(s) (libpcap: \"invalid packet capture length 2147483648")
    }

    @Test(arguments: [PcapWriter.ByteOrder.little, .big])
    func aSnapshotLengthOf2To31IsRefusedAtTheHeader(order: PcapWriter.ByteOrder) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var writer = PcapWriter(linkType: Frame.ethernetType, byteOrder: order)
        writer.add(at: 1_700_000_000, Frame.ethernet(IPPacket.tcp(from: "192.168.1.2", 50000, to: "93.184.216.34", 443, seq: 1, flags: IPPacket.syn)))
        var bytes = writer.bytes
        // The snapshot length is the header's fifth 32-bit field, at byte 16.
        bytes.replaceSubrange(16..<20, with: order == .big ? [0x80, 0, 0, 0] : [0, 0, 0, 0x80])
        let capture = directory.appendingPathComponent("snaplen.pcap")
        try Data(bytes).write(to: capture)
        try expectRefused(
            [capture.path], in: directory,
            message: "snaplen.pcap: byte 16: the file header declares a snapshot length of 2147483648 bytes")
    }

    @Test func aGzipBombIsRefusedOnceItPasses64MiB() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 256 MiB of blank lines after the header compress about 1,000 to 1.
        let plain = Array((header + "\n").utf8) + [UInt8](repeating: 0x0A, count: 256 << 20)
        let compressed = Gzip.compress(plain, level: 9)
        #expect(compressed.count < plain.count / 500)
        let bomb = directory.appendingPathComponent("bomb.jsonl.gz")
        try Data(compressed).write(to: bomb)
        try expectRefused([bomb.path], in: directory, message: "refused as a decompression bomb")
    }

    @Test func aGenuineGzipCaptureThatCompresses35To1IsReadWhole() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 60,000 packets of 1,400 payload bytes (84 MB, past the 64 MiB where the ratio is
        // checked): 28 random bytes then zeros compress about 35 to 1, more than any trace
        // or capture in the corpus (at most 20 to 1), and stay well below 200 to 1.
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom")?.readData(ofLength: 60_000 * 28))
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for index in 0..<60_000 {
            let payload = Array(random[(index * 28)..<(index * 28 + 28)]) + [UInt8](repeating: 0, count: 1_372)
            writer.add(
                at: 1_700_000_000 + Double(index) / 100,
                Frame.ethernet(IPPacket.udp(from: "192.168.1.2", 50000, to: "93.184.216.34", 4000, payload)))
        }
        let compressed = Gzip.compress(writer.bytes, level: 9)
        #expect(writer.bytes.count > 64 << 20)
        #expect(writer.bytes.count / compressed.count > 20)
        let capture = directory.appendingPathComponent("genuine.pcap.gz")
        try Data(compressed).write(to: capture)
        let result = try DrainCommand.runLimited(
            ["analyze", capture.path, "--json", directory.appendingPathComponent("r.json").path], limits: [.data(1 << 30)], scratch: directory)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func json100000LevelsDeepIsRefusedAt512InEveryJSONFormat() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let chrome = directory.appendingPathComponent("deep-chrome.json")
        try (#"{"traceEvents":[{"ph":"X","ts":0,"dur":5,"pid":1,"tid":1,"name":"a","args":"# + deep + "}]}").write(
            to: chrome, atomically: true, encoding: .utf8)
        try expectRefused([chrome.path], in: directory, message: "nested more than 512 deep")
        let trace = try writeTrace([header, #"{"t":0,"type":"cpu","dur":1,"x":"# + deep + "}"], named: "deep.jsonl", in: directory)
        try expectRefused([trace.path], in: directory, message: "deep.jsonl: line 2, column")
        let report = directory.appendingPathComponent("deep-report.json")
        try (#"{"schema_version":"# + deep + "}").write(to: report, atomically: true, encoding: .utf8)
        let compared = try DrainCommand.runLimited(["compare", report.path, report.path], limits: [.data(Self.lineBound)], scratch: directory)
        #expect(compared.status == 65)
        #expect(compared.standardError.contains("deep-report.json:1:"), "\(compared.standardError)")
    }

    @Test func aChromeValueOver128MiBIsRefusedWithin512MiB() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let chrome = directory.appendingPathComponent("long-value.json")
        #expect(FileManager.default.createFile(atPath: chrome.path, contents: Data(#"{"traceEvents":[{"ph":"X","ts":0,"dur":5,"pid":1,"tid":1,"name":""#.utf8)))
        let handle = try FileHandle(forWritingTo: chrome)
        try handle.seekToEnd()
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<160 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data(#""}]}"#.utf8))
        try handle.close()
        try expectRefused(
            [chrome.path], in: directory, bound: Self.chromeBound, message: "a single JSON value is longer than 128 MiB")
    }

    @Test func yamlAliasBombsAndOversizedFilesAreRefusedInModelsRulesAndBudgets() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = [#"a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]"#]
        for level in 1..<10 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        let bomb = directory.appendingPathComponent("bomb.yaml")
        try lines.joined(separator: "\n").write(to: bomb, atomically: true, encoding: .utf8)
        let oversized = try sparseFile("large.yaml", prefix: "# comment\n", size: 64 << 20, in: directory)
        let sample = Repository.root.appendingPathComponent("samples/app-session.jsonl").path

        try expectRefused(["--model", bomb.path, sample], in: directory, message: "bomb.yaml:1:5: anchors and aliases")
        try expectRefused(["--config", bomb.path, sample], in: directory, message: "bomb.yaml:1:5:")
        try expectRefused(["--model", oversized.path, sample], in: directory, message: "large.yaml: the file has 67108864 bytes; a model file has at most 1 MiB")
        try expectRefused(["--config", oversized.path, sample], in: directory, message: "a rule configuration file has at most 1 MiB")
        for budget in [bomb, oversized] {
            let result = try DrainCommand.runLimited(["gate", sample, "--budget", budget.path], limits: [.data(Self.lineBound)], scratch: directory)
            #expect(result.status == 65, "\(result.standardError)")
        }
    }

    @Test func aReportLargerThan64MiBIsRefusedBeforeParsing() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try sparseFile("huge.json", prefix: #"{"schema_version":"#, size: (64 << 20) + 1, in: directory)
        let result = try DrainCommand.runLimited(["compare", report.path, report.path], limits: [.data(Self.lineBound)], scratch: directory)
        #expect(result.status == 65)
        #expect(result.standardError.contains("huge.json: the file has 67108865 bytes; a Drain report has at most 64 MiB"), "\(result.standardError)")
    }
}
