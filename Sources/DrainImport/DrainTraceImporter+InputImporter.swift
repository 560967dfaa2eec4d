extension DrainTraceImporter: ChunkedTextImporter {
    public var format: InputFormat { .drainTrace }
    public var displayName: String { "Drain traces (.jsonl)" }
    public var summary: String { "Drain traces: JSON Lines, a drain_trace header line, then one event per line" }

    /// A first line of text that is a JSON object with a `drain_trace` field.
    public func recognizes(head: [UInt8]) -> Bool {
        let sniffer = FormatSniffer(head)
        return sniffer.firstTextByte == ASCII.openBrace && sniffer.firstLineHasKey("drain_trace")
    }

    public func read(
        source: InputSource, inputIndex: UInt16, capture: CaptureOptions, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput {
        try Self.readFile(path: source.path, compression: source.compression, inputIndex: inputIndex, progress: progress)
    }
}
