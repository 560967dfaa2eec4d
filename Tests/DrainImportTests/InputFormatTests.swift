import DrainTestSupport
import Foundation
import Testing

@testable import DrainImport

/// Formats are recognised from the first bytes of real files, not from their names.
@Suite("Input format detection")
struct InputFormatTests {
    /// Corpus files whose names say one format but whose bytes are another, or that are no
    /// capture at all.
    static let pcapExceptions: [String: InputFormat?] = [
        "ndpi__mpeg.pcap": .pcapng,  // a pcapng file named .pcap
        "pcapplusplus__pcapng-example.pcapng.zst": nil,  // compressed
    ]

    @Test("every corpus capture is pcap or pcapng by its magic number")
    func captures() throws {
        let files = Corpus.files(in: "pcap")
        #expect(files.count > 40)
        for file in files {
            let expected: InputFormat? =
                Self.pcapExceptions[file.lastPathComponent] ?? (file.pathExtension == "pcapng" ? .pcapng : .pcap)
            if let expected {
                #expect(try InputFormat.detect(path: file.path) == expected, "\(file.lastPathComponent)")
            } else {
                #expect(throws: ImportError.unknownFormat(path: file.path, reason: "the file is zstd-compressed; decompress it first")) {
                    try InputFormat.detect(path: file.path)
                }
            }
        }
    }

    @Test("nanosecond and big-endian pcap variants")
    func pcapVariants() throws {
        let nanosecond = Corpus.root.appendingPathComponent("pcap/tcpdump__tcp-handshake-nano.pcap")
        let bigEndian = Corpus.root.appendingPathComponent("pcap/pcapplusplus__microsecs_big_endian.pcap")
        #expect(try InputFormat.detect(path: nanosecond.path) == .pcap)
        #expect(try InputFormat.detect(path: bigEndian.path) == .pcap)
        // The big-endian nanosecond magic, which the corpus lacks.
        let fixture = try TraceFixture(bytes: [0xA1, 0xB2, 0x3C, 0x4D] + [UInt8](repeating: 0, count: 20), name: "x.bin")
        defer { fixture.remove() }
        #expect(try InputFormat.detect(path: fixture.path) == .pcap)
    }

    @Test("every corpus Chrome trace, object or array form")
    func chromeTraces() throws {
        let files = Corpus.files(in: "chrome-trace")
        #expect(files.count > 20)
        for file in files {
            #expect(try InputFormat.detect(path: file.path) == .chromeTrace, "\(file.lastPathComponent)")
        }
    }

    @Test("every corpus MetricKit payload, metric or diagnostic")
    func metricKit() throws {
        let files = Corpus.files(in: "metrickit")
        #expect(files.count > 10)
        for file in files {
            #expect(try InputFormat.detect(path: file.path) == .metrickit, "\(file.lastPathComponent)")
        }
    }

    @Test("every corpus strace output, with -f, -ttt, -tt and -c")
    func strace() throws {
        let files = Corpus.files(in: "strace")
        #expect(files.count >= 7)
        for file in files {
            #expect(try InputFormat.detect(path: file.path) == .strace, "\(file.lastPathComponent)")
        }
    }

    @Test(
        "strace lines in other shapes",
        arguments: [
            #"openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3"#,
            #"[pid  4242] 10:00:00.123456 read(3, "x", 1) = 1"#,
            #"1795311592.347824 brk(NULL) = 0x56129f263000"#,
            "4242  +++ exited with 0 +++",
        ])
    func straceShapes(_ firstLine: String) throws {
        let fixture = try TraceFixture(firstLine + "\n", name: "trace.txt")
        defer { fixture.remove() }
        #expect(try InputFormat.detect(path: fixture.path) == .strace)
    }

    @Test("a Drain trace, with or without a byte order mark")
    func drainTrace() throws {
        let plain = try TraceFixture(header + "\n" + #"{"t":0,"type":"memory_warning"}"# + "\n", name: "a.log")
        defer { plain.remove() }
        #expect(try InputFormat.detect(path: plain.path) == .drainTrace)
        let marked = try TraceFixture(bytes: [0xEF, 0xBB, 0xBF] + Array("\n \(header)\n".utf8))
        defer { marked.remove() }
        #expect(try InputFormat.detect(path: marked.path) == .drainTrace)
    }

    @Test(
        "what is not recognised is named by its first bytes",
        arguments: [
            ("", "the file is empty"),
            ("hello world\n", #"not a format Drain reads (Drain traces (.jsonl), pcap captures, pcapng captures, Chrome traces, MetricKit JSON, strace output); it starts with "hello world\u000A""#),
            (#"{"name":"x"}"#, #"a JSON object that is not a Drain trace (no drain_trace header), a Chrome trace (no traceEvents) or a MetricKit payload; it starts with "{\"name\":\"x\"}""#),
            ("[1,2,3]", #"a JSON array that is not a Chrome trace (no objects with "ph"); it starts with "[1,2,3]""#),
        ])
    func unrecognised(_ text: String, _ reason: String) throws {
        let fixture = try TraceFixture(text, name: "input")
        defer { fixture.remove() }
        #expect(throws: ImportError.unknownFormat(path: fixture.path, reason: reason)) {
            try InputFormat.detect(path: fixture.path)
        }
    }

    @Test("binary that is no capture is shown in hex")
    func binary() throws {
        let fixture = try TraceFixture(bytes: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00], name: "a.out")
        defer { fixture.remove() }
        #expect(throws: ImportError.unknownFormat(path: fixture.path, reason: "not a format Drain reads (Drain traces (.jsonl), pcap captures, pcapng captures, Chrome traces, MetricKit JSON, strace output); it starts with bytes 7f 45 4c 46 02 01 01 00")) {
            try InputFormat.detect(path: fixture.path)
        }
    }

    @Test("missing files and directories are unreadable")
    func unreadable() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: ImportError.unreadable(path: directory.path, reason: "is a directory")) {
            try InputFormat.detect(path: directory.path)
        }
        let missing = directory.appendingPathComponent("missing").path
        #expect(throws: ImportError.unreadable(path: missing, reason: "No such file or directory")) {
            try Importers.read(path: missing, inputIndex: 0)
        }
    }

    @Test("Importers reads Drain traces, captures and MetricKit payloads")
    func dispatch() throws {
        let fixture = try TraceFixture(header + "\n" + #"{"t":0,"type":"memory_warning"}"# + "\n")
        defer { fixture.remove() }
        let input = try Importers.read(path: fixture.path, inputIndex: 2)
        #expect(input.info.format == "drain-trace" && Array(input.timeline.input) == [2])

        for (file, format, packets) in [("pcap/ndpi__iphone.pcap", "pcap", 500), ("pcap/ndpi__sites.pcapng", "pcapng", 699)] {
            let capture = try Importers.read(path: Corpus.root.appendingPathComponent(file).path, inputIndex: 1)
            #expect(capture.info.format == format)
            #expect(capture.info.packets == packets)
        }

        let payload = try Importers.read(
            path: Corpus.root.appendingPathComponent("metrickit/meter__real_report.json").path, inputIndex: 0)
        #expect(payload.info.format == "metrickit")
        #expect(payload.timeline.aggregates?.crashes.count == 2)
    }
}

/// The list of importers: one per format, each named in the help, asked in order.
@Suite struct ImportersTests {
    @Test func everyFormatHasOneImporter() {
        #expect(Importers.all.map(\.format) == [.drainTrace, .pcap, .pcapng, .chromeTrace, .metrickit, .strace])
        #expect(Set(Importers.all.map(\.format)) == Set(InputFormat.allCases))
    }

    @Test func theHelpNamesEveryImporter() {
        #expect(
            Importers.inputFilesHelp
                == "Input files: Drain traces (.jsonl), pcap captures, pcapng captures, Chrome traces, MetricKit JSON, strace output; any of them gzip-compressed (.gz).")
        let lines = Importers.inputFormatsHelp.split(separator: "\n")
        #expect(lines.count == Importers.all.count)
        for (importer, line) in zip(Importers.all, lines) {
            #expect(Importers.inputFilesHelp.contains(importer.displayName))
            #expect(line.hasPrefix("  " + importer.format.rawValue + " "))
            #expect(line.hasSuffix(importer.summary))
            #expect(!importer.summary.contains("\n"))
        }
        #expect(lines[0] == "  drain-trace   Drain traces: JSON Lines, a drain_trace header line, then one event per line")
    }
}
