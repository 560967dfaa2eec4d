/// An importer of one input format, as `Importers` finds and runs it: every importer is listed
/// once in `Importers.all`, which format detection asks in order and help texts are made from.
public protocol InputImporter: Sendable {
    /// The format's id, written as `format` in reports (`drain-trace`, `pcap`…).
    var format: InputFormat { get }
    /// What the format's files are called in help texts, in the plural: `Drain traces (.jsonl)`.
    var displayName: String { get }
    /// One line on what the importer reads from such files, for help texts.
    var summary: String { get }

    /// Whether `head`, the first bytes of a file (at most 64 KiB, decompressed when the file
    /// is gzip-compressed), starts like this format. O(`head.count`).
    func recognizes(head: [UInt8]) -> Bool

    /// Reads the file `source` describes as input number `inputIndex` of an analysis,
    /// decompressing it as `source.compression` says.
    ///
    /// - Parameters:
    ///   - capture: how to read packet captures (device address, link, coalescing); other
    ///     formats ignore it.
    ///   - progress: told the bytes of the file read so far (compressed bytes for gzip).
    /// - Throws: `ImportError.unreadable` if the file cannot be read, `.badData` naming the
    ///   file and where if its content (or its gzip compression) is damaged.
    func read(
        source: InputSource, inputIndex: UInt16, capture: CaptureOptions, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput
}
