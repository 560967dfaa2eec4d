import CZlib
import DrainTrace

/// The decompressed bytes of gzip data (RFC 1952) read from `Base`, decompressed by zlib as
/// the caller asks for them, so that a compressed input streams like a plain one.
///
/// Every member of a multi-member file (`cat a.gz b.gz`) is read in turn; zlib checks each
/// member's CRC-32 and length. Memory is one chunk of compressed input and zlib's 32 KiB
/// window, whatever the file's size; O(n) in the decompressed bytes. A file that ends inside
/// a member is not an error here: the bytes decoded so far are returned, then the end, and
/// `isCutOff` says so, so that the reader of the decompressed data keeps what was complete.
/// A class: zlib's stream must stay at one address, and callers ask `isCutOff` and
/// `compressedOffset` after handing the source to a reader.
final class GzipByteSource<Base: ByteSource>: ByteSource {
    /// The two bytes every gzip member starts with.
    static var magic: [UInt8] { [0x1F, 0x8B] }

    /// The size of the reads from `Base`.
    static var inputChunkSize: Int { 256 << 10 }

    /// The most decompressed bytes per compressed byte accepted once `ratioCheckFrom`
    /// bytes have been decompressed. Traces and captures compress 1–20 times (measured on
    /// `../shared/corpus` with `gzip -9`); deflate's own limit is about 1,032, reached only by
    /// runs of one byte: a decompression bomb.
    static var maximumRatio: Int64 { 200 }

    /// Decompressed bytes below which the ratio is not checked: small inputs cost little
    /// whatever their ratio, and a header's overhead skews the ratio of short data.
    static var ratioCheckFrom: Int64 { 64 << 20 }

    private var base: Base
    private let path: String
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    /// Compressed bytes read from `base` so far.
    private var compressedRead: Int64 = 0
    private var baseEnded = false
    /// Whether the last member read ended; what follows is the end or another member.
    private var memberEnded = false
    private var finished = false
    /// Whether the compressed data ended in the middle of a member.
    private(set) var isCutOff = false
    /// Decompressed bytes returned so far.
    private(set) var decompressedOffset: Int64 = 0

    /// `path` names the file in errors.
    init(_ base: Base, path: String) {
        self.base = base
        self.path = path
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(byteCount: Self.inputChunkSize, alignment: 16)
        // Fails only without memory to allocate zlib's state, which nothing here can recover from.
        let status = drain_inflate_init_gzip(stream)
        precondition(status == Z_OK, "zlib's inflateInit2 failed with status \(status)")
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// Unknown until the end: gzip stores the length only modulo 2^32, at the end.
    var size: Int? { nil }

    /// The compressed bytes decompression has used so far: its position in the compressed file.
    var compressedOffset: Int64 { compressedRead - Int64(stream.pointee.avail_in) }

    /// - Throws: `ImportError.badData` naming the byte of the compressed file where zlib found
    ///   damage (a bad header, damaged deflate data, a CRC-32 or length that does not match,
    ///   other data after a member) or where the data exceeded `maximumRatio`; whatever the
    ///   base source throws.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard let start = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let capacity = UInt32(clamping: buffer.count)
        stream.pointee.next_out = start.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = capacity
        while stream.pointee.avail_out == capacity, !finished {
            if stream.pointee.avail_in == 0, !baseEnded {
                try refill()
                continue
            }
            if memberEnded {
                guard stream.pointee.avail_in > 0 else {
                    finished = true
                    break
                }
                // Another member follows (or other data, which its header check refuses).
                inflateReset(stream)
                memberEnded = false
            }
            switch inflate(stream, Z_NO_FLUSH) {
            case Z_OK:
                break
            case Z_STREAM_END:
                memberEnded = true
            case Z_BUF_ERROR:
                // No progress without more input, and there is none: the file is cut off.
                isCutOff = true
                finished = true
            case let status:
                throw failure(status)
            }
        }
        let count = Int(capacity - stream.pointee.avail_out)
        decompressedOffset += Int64(count)
        if decompressedOffset > Self.ratioCheckFrom, decompressedOffset / max(1, compressedOffset) > Self.maximumRatio {
            throw .badData(
                path: path, location: "byte \(compressedOffset) of the compressed file",
                reason: "gzip: \(compressedOffset) compressed bytes decompress to more than \(decompressedOffset) "
                    + "(over \(Self.maximumRatio) times as many), which no trace or capture does: refused as a "
                    + "decompression bomb; if the file is genuine, decompress it first (gunzip -k) and analyse that")
        }
        return count
    }

    private func refill() throws(ImportError) {
        let count = try base.read(into: input)
        guard count > 0 else {
            baseEnded = true
            return
        }
        compressedRead += Int64(count)
        stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(count)
    }

    /// The error for zlib's failure, at the compressed byte where zlib stopped.
    private func failure(_ status: Int32) -> ImportError {
        let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
        var offset = compressedOffset
        var reason = "gzip: \(message)"
        // zlib has read the bytes it checked: point at their start.
        switch message {
        case "incorrect header check":
            // The first member's magic was checked before decompressing: this follows a member.
            offset -= 2
            reason = "gzip: other data after the compressed data, not a gzip member"
        case "incorrect data check":
            offset -= 4
            reason = "gzip: CRC-32 mismatch: the decompressed data is damaged"
        case "incorrect length check":
            offset -= 4
            reason = "gzip: length mismatch: the decompressed data is not as long as the member's trailer says"
        default:
            break
        }
        return .badData(path: path, location: "byte \(offset) of the compressed file", reason: reason)
    }

    /// Records a `gzip-truncated` warning when the compressed data ended inside a member.
    func recordCutOff(in diagnostics: inout ImportDiagnostics) {
        guard isCutOff else { return }
        diagnostics.record(
            .warning, code: "gzip-truncated",
            message: "the compressed data ends early (the file is cut off); what it held up to there was read",
            location: "byte \(compressedOffset) of the compressed file")
    }
}
