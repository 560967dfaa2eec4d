extension StraceImporter: ChunkedTextImporter {
    public var format: InputFormat { .strace }
    public var displayName: String { "strace output" }
    public var summary: String { "strace text output with timestamps (strace -f -ttt -T -yy): waits, file and socket I/O" }

    /// A first line of text like strace's (see `FormatSniffer.looksLikeStrace`).
    public func recognizes(head: [UInt8]) -> Bool {
        FormatSniffer(head).looksLikeStrace
    }

    public func read(
        source: InputSource, inputIndex: UInt16, capture: CaptureOptions, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput {
        try Self.read(source, inputIndex: inputIndex, progress: progress)
    }
}
