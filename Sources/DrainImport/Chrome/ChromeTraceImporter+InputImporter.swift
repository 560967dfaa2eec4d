extension ChromeTraceImporter: ChunkedTextImporter {
    public var format: InputFormat { .chromeTrace }
    public var displayName: String { "Chrome traces" }
    public var summary: String {
        "Chrome Trace Event JSON (Chrome, Perfetto, catapult, Hermes…): slices per thread, instants, memory counters"
    }

    /// A JSON object with `traceEvents`, or a JSON array with objects with `ph`.
    public func recognizes(head: [UInt8]) -> Bool {
        let sniffer = FormatSniffer(head)
        switch sniffer.firstTextByte {
        case ASCII.openBrace: return sniffer.containsKey("traceEvents")
        case ASCII.openBracket: return sniffer.containsKey("ph")
        default: return false
        }
    }

    public func read(
        source: InputSource, inputIndex: UInt16, capture: CaptureOptions, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput {
        try Self.read(source, inputIndex: inputIndex, progress: progress)
    }
}
