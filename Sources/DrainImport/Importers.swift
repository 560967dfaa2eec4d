/// Reads any supported input: detects its format and hands it to that format's importer.
public enum Importers {
    /// Every importer, in the order format detection asks them: the first whose
    /// `recognizes(head:)` accepts a file's first bytes reads it. Drain traces come before
    /// Chrome traces and MetricKit (all three may be JSON objects), and those before strace
    /// (`[pid N]` lines start like a JSON array).
    public static let all: [any InputImporter] = [
        DrainTraceImporter(), CaptureImporter.pcap, CaptureImporter.pcapng, ChromeTraceImporter(),
        MetricKitImporter(), StraceImporter(),
    ]

    /// How many leading bytes detection looks at (of the decompressed data, for gzip).
    static let sniffLength = 64 << 10

    /// One sentence naming the input files Drain reads, for the command line's help:
    /// `Input files: Drain traces (.jsonl), pcap captures, …; any of them gzip-compressed (.gz).`
    public static var inputFilesHelp: String {
        var names = ""
        for importer in all {
            if !names.isEmpty { names += ", " }
            names += importer.displayName
        }
        return "Input files: " + names + "; any of them gzip-compressed (.gz)."
    }

    /// One line per importer, its format id and what it reads, for a longer help text.
    public static var inputFormatsHelp: String {
        let width = all.map(\.format.rawValue.count).max() ?? 0
        // Appended line by line, here and above: the generic `joined(separator:)` resolves its
        // element type by name at run time, a scan of the conformance records (about 0.4 ms),
        // and these texts are built in every run (the command's configuration and arguments).
        var text = ""
        for importer in all {
            let id = importer.format.rawValue
            if !text.isEmpty { text += "\n" }
            text += "  " + id + String(repeating: " ", count: width - id.count) + "  " + importer.summary
        }
        return text
    }

    /// Detects the format of the file at `path` (see `detect(path:)`) and reads it.
    ///
    /// - Throws: `ImportError.unreadable` if the file cannot be read; `.unknownFormat` if its
    ///   format is not recognised; `.badData` if its gzip compression is damaged;
    ///   otherwise whatever the format's importer throws.
    /// - Parameters:
    ///   - capture: how to read packet captures (device address, link override).
    ///   - progress: told the bytes of the file read so far (compressed bytes for gzip) as
    ///     the import goes on.
    ///
    /// A stream (`/dev/stdin` fed by a pipe, a FIFO) is read from its copy (`StreamInputs`);
    /// the input and its errors keep `path`.
    public static func read(
        path: String, inputIndex: UInt16, capture: CaptureOptions = CaptureOptions(), progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        let readable = try StreamInputs.readablePath(for: path)
        do {
            let (importer, source) = try detect(path: readable)
            var imported = try importer.read(source: source, inputIndex: inputIndex, capture: capture, progress: progress)
            imported.info.path = path
            return imported
        } catch {
            throw readable == path ? error : error.naming(path)
        }
    }

    /// The first importer of `all` that recognises `head`, the first bytes of a (decompressed)
    /// file. O(importers × `head.count`).
    static func importer(recognizing head: [UInt8]) -> (any InputImporter)? {
        all.first { $0.recognizes(head: head) }
    }

    /// The importer for the file at `path`, asked in the order of `all` about its first
    /// bytes (at most 64 KiB) — decompressed first when they are gzip's (`1F 8B`) — and how
    /// the file is stored. Names do not matter.
    ///
    /// - Throws: `ImportError.unreadable` if the file cannot be read; `.badData` if the gzip
    ///   data in those first bytes is damaged; `.unknownFormat` naming what the file (or its
    ///   decompressed data) starts with otherwise.
    static func detect(path: String) throws(ImportError) -> (importer: any InputImporter, source: InputSource) {
        var file = try FileByteSource(path: path)
        defer { file.close() }
        let head = try file.readPrefix(limit: sniffLength)
        let compression = InputSource.compression(of: head)
        var text = head
        if compression == .gzip {
            var decompressed = GzipByteSource(MemoryByteSource(head), path: path)
            text = try decompressed.readPrefix(limit: sniffLength)
        }
        guard let importer = importer(recognizing: text) else {
            let reason = FormatSniffer(text).unrecognisedReason
            guard compression == .gzip else { throw .unknownFormat(path: path, reason: reason) }
            throw .unknownFormat(
                path: path, reason: text.isEmpty ? "the file is gzip-compressed and holds no data" : "gzip-compressed: " + reason)
        }
        return (importer, InputSource(path: path, compression: compression))
    }
}
