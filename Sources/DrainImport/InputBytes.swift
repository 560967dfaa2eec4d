#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of an input file as a text importer reads them: read in chunks, decompressed
/// through zlib when the file is gzip-compressed, with the bytes of the file read so far —
/// compressed bytes for gzip, so that progress compares with the file's size — told to
/// `progress`. The owner closes it.
struct InputBytes: ByteSource {
    private var file: ProgressByteSource<FileByteSource>
    /// The decompressor of a gzip file. Copies share it, so the owner can ask whether the
    /// compressed data was cut off after a reader consumed a copy.
    let gzip: GzipByteSource<ProgressByteSource<FileByteSource>>?

    /// Opens `path`. `compression` is what format detection found; `nil` looks at the first
    /// bytes here, with `pread` so that the file offset stays at 0 (a pipe, which cannot be
    /// looked into, is read as it is).
    ///
    /// - Throws: `ImportError.unreadable` if the file cannot be opened (or is a directory).
    init(path: String, compression: InputSource.Compression?, progress: ImportProgress?) throws(ImportError) {
        let opened = try FileByteSource(path: path)
        let isGzip = compression.map { $0 == .gzip } ?? Self.startsWithGzipMagic(opened.descriptor)
        file = ProgressByteSource(opened, progress: progress)
        gzip = isGzip ? GzipByteSource(file, path: path) : nil
    }

    /// Whether the open file starts with gzip's magic bytes, read with `pread` so that the file
    /// offset stays where it is.
    static func startsWithGzipMagic(_ descriptor: Int32) -> Bool {
        var magic: (UInt8, UInt8) = (0, 0)
        let count = withUnsafeMutableBytes(of: &magic) { pread(descriptor, $0.baseAddress, 2, 0) }
        return count == 2 && InputSource.compression(of: [magic.0, magic.1]) == .gzip
    }

    /// The file's size for a plain file; unknown for gzip.
    var size: Int? { gzip == nil ? file.size : nil }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        if let gzip { return try gzip.read(into: buffer) }
        return try file.read(into: buffer)
    }

    func close() {
        file.base.close()
    }

    /// Opens the file at `path`, imports it with `body`, and closes it. A gzip file whose
    /// compressed data ends early gets a `gzip-truncated` warning beside what `body` found.
    static func importing(
        path: String, compression: InputSource.Compression?, progress: ImportProgress?,
        _ body: (InputBytes) throws(ImportError) -> ImportedInput
    ) throws(ImportError) -> ImportedInput {
        let bytes = try InputBytes(path: path, compression: compression, progress: progress)
        defer { bytes.close() }
        var input = try body(bytes)
        bytes.gzip?.recordCutOff(in: &input.info.diagnostics)
        return input
    }
}
