/// The decompressed bytes of a gzip file (RFC 1952), read through DEFLATE (`Inflater`) as
/// the caller asks for them, so a compressed trace streams like a plain one.
///
/// Every member of a multi-member file (`cat a.gz b.gz`) is read in turn; each member's
/// CRC-32 and length are checked. A file that ends inside a member is not an error here: the
/// bytes decoded so far are returned, then the end, and `isCutOff` says so, so the reader
/// of the decompressed text can keep what was complete. A class, since the caller asks
/// `isCutOff` after handing the source to a reader.
final class GzipByteSource<Base: ByteSource>: ByteSource {
    /// The two bytes every gzip member starts with.
    static var magic: [UInt8] { [0x1F, 0x8B] }

    private let path: String
    private let inflater: Inflater<Base>
    private var pending = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var stage = Stage.header
    private var checksum = CRC32()
    private var memberSize: UInt32 = 0
    /// Where a check that reads ahead failed (a trailer's start), when not where reading stopped.
    private var failureOffset: Int64?
    /// Whether the compressed data ended in the middle of a member.
    private(set) var isCutOff = false

    private enum Stage {
        case header, data, trailer, nextMember, end
    }

    /// `path` names the file in errors.
    init(_ base: Base, path: String) {
        self.path = path
        self.inflater = Inflater(source: base)
    }

    /// Unknown until the end: gzip stores the length only modulo 2^32, at the end.
    var size: Int? { nil }

    /// - Throws: `ImportError.badData` naming the byte of the compressed file where the
    ///   data is corrupt; whatever the base source throws.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        do {
            while pending.isEmpty {
                if try !advance() { return 0 }
            }
        } catch {
            switch error {
            case .endOfInput:
                isCutOff = true
                stage = .end
                return 0
            case let .invalid(reason):
                let offset = failureOffset ?? inflater.bits.byteOffset
                throw .badData(path: path, location: "byte \(offset) of the compressed file", reason: "gzip: \(reason)")
            case let .source(error):
                throw error
            }
        }
        let count = min(buffer.count, pending.count)
        buffer.baseAddress!.copyMemory(from: pending.baseAddress!, byteCount: count)
        pending = UnsafeBufferPointer(rebasing: pending[count...])
        return count
    }

    /// Takes one step through the file; false at its end.
    private func advance() throws(InflateError) -> Bool {
        switch stage {
        case .header:
            try readHeader()
            inflater.reset()
            checksum = CRC32()
            memberSize = 0
            stage = .data
        case .data:
            let output = try inflater.decode()
            if output.isEmpty, inflater.isFinished {
                stage = .trailer
            } else if let base = output.baseAddress {
                checksum.update(base, count: output.count)
                memberSize &+= UInt32(truncatingIfNeeded: output.count)
                pending = output
            }
        case .trailer:
            inflater.bits.alignToByte()
            failureOffset = inflater.bits.byteOffset
            let storedChecksum = try littleEndian32()
            let storedSize = try littleEndian32()
            guard storedChecksum == checksum.value else {
                throw .invalid("CRC-32 mismatch: the decompressed data is damaged")
            }
            guard storedSize == memberSize else {
                throw .invalid("length mismatch: the member holds \(memberSize) bytes, its trailer says \(storedSize)")
            }
            failureOffset = nil
            stage = .nextMember
        case .nextMember:
            stage = try inflater.bits.isAtEnd() ? .end : .header
        case .end:
            return false
        }
        return true
    }

    /// Reads a member header (RFC 1952 §2.3) up to its compressed data.
    private func readHeader() throws(InflateError) {
        guard try byte() == 0x1F, try byte() == 0x8B else {
            throw .invalid("expected a gzip member (bytes 1f 8b); found other data after the compressed data")
        }
        let method = try byte()
        guard method == 8 else { throw .invalid("compression method \(method) is not deflate (8)") }
        let flags = try byte()
        guard flags & 0xE0 == 0 else { throw .invalid("reserved header flags are set") }
        for _ in 0..<6 { _ = try byte() }  // modification time, extra flags, operating system
        if flags & 0x04 != 0 {
            let length = Int(try byte()) | Int(try byte()) << 8
            for _ in 0..<length { _ = try byte() }
        }
        if flags & 0x08 != 0 { while try byte() != 0 {} }  // file name
        if flags & 0x10 != 0 { while try byte() != 0 {} }  // comment
        if flags & 0x02 != 0 { for _ in 0..<2 { _ = try byte() } }  // header CRC-16
    }

    private func byte() throws(InflateError) -> UInt8 {
        UInt8(truncatingIfNeeded: try inflater.bits.bits(8))
    }

    private func littleEndian32() throws(InflateError) -> UInt32 {
        let low = try inflater.bits.bits(16)
        let high = try inflater.bits.bits(16)
        return low | high << 16
    }

    /// Up to `limit` decompressed bytes from the start of gzip data held in memory, for format
    /// detection; as many as decode before any damage or the end of `bytes`.
    static func prefix(of bytes: [UInt8], limit: Int) -> [UInt8] {
        let source = GzipByteSource<MemoryByteSource>(MemoryByteSource(bytes), path: "")
        var result = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = result.withUnsafeMutableBytes { buffer in
                (try? source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))) ?? 0
            }
            if count == 0 { break }
            filled += count
        }
        return Array(result[..<filled])
    }
}
