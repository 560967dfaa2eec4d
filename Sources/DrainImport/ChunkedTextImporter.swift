/// An importer whose format is text read from a byte source in chunks (Drain traces, strace,
/// Chrome traces): opening the file, decompressing it and reporting progress are the same
/// for each.
protocol ChunkedTextImporter: InputImporter {
    /// The size of the reads from the file.
    static var defaultChunkSize: Int { get }

    /// Reads the (decompressed) text of a file from any byte source, in reads of `chunkSize` bytes.
    static func read<Source: ByteSource>(
        source: Source, path: String, inputIndex: UInt16, chunkSize: Int
    ) throws(ImportError) -> ImportedInput
}

extension ChunkedTextImporter {
    /// Reads the file at `path` in reads of `chunkSize` bytes (small sizes let tests put chunk
    /// boundaries anywhere), stored as `compression` says (`nil`: as its first bytes say). A
    /// gzip file whose compressed data ends early gets a `gzip-truncated` warning.
    static func read(
        path: String, compression: InputSource.Compression? = nil, inputIndex: UInt16, chunkSize: Int,
        progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        try InputBytes.importing(path: path, compression: compression, progress: progress) { bytes throws(ImportError) in
            try read(source: bytes, path: path, inputIndex: inputIndex, chunkSize: chunkSize)
        }
    }

    /// What `InputImporter.read(source:inputIndex:capture:progress:)` does for these importers.
    static func read(_ source: InputSource, inputIndex: UInt16, progress: ImportProgress?) throws(ImportError) -> ImportedInput {
        try read(
            path: source.path, compression: source.compression, inputIndex: inputIndex, chunkSize: defaultChunkSize,
            progress: progress)
    }
}
