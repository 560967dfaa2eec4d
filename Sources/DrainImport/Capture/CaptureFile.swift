import CPcap
import DrainTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A capture file open in libpcap with nanosecond timestamps: pcap in either byte order and
/// either timestamp precision, and pcapng; plain, or gzip-compressed and decompressed as
/// libpcap reads it. Opening reads the pcapng interface names first.
final class CaptureFile {
    let path: String
    /// libpcap's handle; closing it closes the file.
    let handle: OpaquePointer
    /// `pcap` or `pcapng`.
    let format: String
    let dataLinkType: Int32
    /// The pcapng interfaces declared before the first packet (empty for pcap).
    let interfaces: [PcapngInterface]
    /// The size of what libpcap reads, if known: a regular file's size; unknown for gzip.
    let size: Int64?
    /// For classic pcap with 16-byte record headers, where the first record starts; record
    /// offsets can then be counted exactly. `nil` for pcapng and pcap variants.
    let firstRecordOffset: Int64?
    /// The decompressing stream libpcap reads a gzip-compressed file through.
    let gzip: GzipCaptureStream?
    /// For a classic pcap file whose records can be read straight from the file
    /// (`PcapRecordLayout`), where and how; `nil` for every other file, read by libpcap alone.
    let inPlaceRecords: PcapRecordLayout?

    /// The size of the stdio buffer libpcap reads a capture file through.
    static let readBufferBytes = 1 << 20
    /// The stdio buffer of a file whose records are read in place, read ahead
    /// (`PcapRecordLayout`): libpcap reads only its header then, and a 1 MiB buffer meant
    /// reading the file's first mebibyte for the 24 bytes of it, twice (before and after the
    /// rewind).
    static let inPlaceReadBufferBytes = 64 << 10
    /// That buffer, freed after `pcap_close` has closed the stream that uses it.
    private let readBuffer: UnsafeMutableRawPointer

    /// Opens `path`, stored as `compression` says (`nil`: as its first bytes say).
    ///
    /// - Throws: `.unreadable` if the file cannot be opened or read; `.badData` with libpcap's
    ///   reason if libpcap refuses it, said plainly where it is a libpcap limit on valid pcapng;
    ///   `.badData` naming the compressed byte if its gzip data is damaged; `.badData` for a
    ///   snapshot length out of range.
    init(path: String, compression: InputSource.Compression? = nil) throws(ImportError) {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(path: path, reason: Self.errnoText()) }
        let regular = status.st_mode & S_IFMT == S_IFREG
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .unreadable(path: path, reason: "it is a directory") }
        guard var file = fopen(path, "rb") else { throw .unreadable(path: path, reason: Self.errnoText()) }
        // The first bytes are read past stdio (`pread`), so that the buffer can be chosen by
        // what they say before the stream is used.
        var head: [UInt8] = []
        if regular {
            var start = [UInt8](repeating: 0, count: Self.pcapHeaderSize)
            let count = pread(fileno(file), &start, start.count, 0)
            guard count >= 0 else {
                let reason = Self.errnoText()
                fclose(file)
                throw .unreadable(path: path, reason: reason)
            }
            head = Array(start.prefix(count))
        }
        // libpcap reads records through stdio, whose default buffer (4 KiB) meant a system call
        // per 4 KiB of capture; with 1 MiB, a gigabyte is a thousand reads instead of 262,000.
        // glibc takes a size only with a buffer of ours; it must outlive the stream, so it is
        // freed after the stream is closed: on the way out of a failed open, or in `deinit`.
        // It starts on a page, as the file's pages the kernel copies into it do: malloc's 1 MiB
        // block started 16 bytes into one, and that copy ran at half the speed.
        // A file whose records will be read in place (read ahead, as `CaptureImporter` decides
        // for a large file on a machine with two cores) needs stdio only for its header.
        let readsInPlace = Self.hasInPlaceFormat(head) && CaptureOptions.readsAheadAutomatically(size: Int64(status.st_size), compressed: false)
        let bufferBytes = readsInPlace ? Self.inPlaceReadBufferBytes : Self.readBufferBytes
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferBytes, alignment: 4096)
        var opened = false
        defer { if !opened { buffer.deallocate() } }
        setvbuf(file, buffer.assumingMemoryBound(to: CChar.self), _IOFBF, bufferBytes)
        var interfaces: [PcapngInterface] = []
        var gzip: GzipCaptureStream?
        if regular {
            let found = InputSource.compression(of: Array(head.prefix(4)))
            if (compression ?? found) == .gzip {
                fclose(file)
                (file, head, interfaces, gzip) = try Self.openDecompressing(path: path)
            } else {
                if head.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) {
                    rewind(file)
                    interfaces = PcapngInterfaces.scan(file)
                }
                guard ferror(file) == 0 else {
                    let reason = Self.errnoText()
                    fclose(file)
                    throw .unreadable(path: path, reason: reason)
                }
                rewind(file)
            }
        }
        if let problem = Self.snapLengthProblem(head: head, interfaces: interfaces) {
            fclose(file)
            throw .badData(path: path, location: problem.location, reason: problem.reason)
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let handle = pcap_fopen_offline_with_tstamp_precision(file, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer)
        else {
            fclose(file)
            if let failure = gzip?.failure { throw failure }
            let reason = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .badData(path: path, location: nil, reason: Self.explain(libpcap: reason, interfaces: interfaces))
        }
        self.handle = handle
        readBuffer = buffer
        opened = true
        self.interfaces = interfaces
        self.gzip = gzip
        format = pcap_major_version(handle) == 1 ? "pcapng" : "pcap"
        dataLinkType = pcap_datalink(handle)
        size = regular && gzip == nil ? Int64(status.st_size) : nil
        firstRecordOffset = regular && Self.classicPcapIsBigEndian(head) != nil ? Int64(Self.pcapHeaderSize) : nil
        inPlaceRecords = regular && gzip == nil ? Self.inPlaceLayout(head: head, handle: handle, size: Int(status.st_size)) : nil
    }

    /// Whether `head` starts a classic pcap file in this machine's byte order, format 2.4 or
    /// later: one whose records can be read in place.
    static func hasInPlaceFormat(_ head: [UInt8]) -> Bool {
        // In this machine's byte order the header's fields are read as they lie.
        guard head.count == pcapHeaderSize, classicPcapIsBigEndian(head) == (1.bigEndian == 1) else { return false }
        let (major, minor) = head.withUnsafeBytes {
            ($0.loadUnaligned(fromByteOffset: 4, as: UInt16.self), $0.loadUnaligned(fromByteOffset: 6, as: UInt16.self))
        }
        return major == 2 && minor >= 4
    }

    /// The layout of a file of that format and `size` that libpcap opened with its stream at
    /// the first record; `nil` otherwise.
    private static func inPlaceLayout(head: [UInt8], handle: OpaquePointer, size: Int) -> PcapRecordLayout? {
        guard hasInPlaceFormat(head), let stream = pcap_file(handle), ftello(stream) == Int64(pcapHeaderSize) else { return nil }
        let snapshot = pcap_snapshot(handle)
        guard snapshot > 0 else { return nil }
        return PcapRecordLayout(
            stream: stream, size: size, firstRecord: Int64(pcapHeaderSize), snapshot: UInt32(snapshot),
            nanoseconds: head.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } == 0xA1B2_3C4D)
    }

    /// Opens a gzip-compressed capture for libpcap: the stream it reads, and the first bytes
    /// (a pcap file header's worth) and pcapng interfaces read from the decompressed head (the stream cannot rewind).
    private static func openDecompressing(path: String) throws(ImportError) -> (
        file: UnsafeMutablePointer<FILE>, head: [UInt8], interfaces: [PcapngInterface], gzip: GzipCaptureStream
    ) {
        var head = try GzipCaptureStream.head(path: path, limit: PcapngInterfaces.scanLimit)
        var interfaces: [PcapngInterface] = []
        if head.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) {
            head.withUnsafeMutableBytes { bytes in
                guard let memory = fmemopen(bytes.baseAddress, bytes.count, "r") else { return }
                interfaces = PcapngInterfaces.scan(memory)
                fclose(memory)
            }
        }
        let gzip = try GzipCaptureStream(path: path)
        guard let file = gzip.open() else { throw .unreadable(path: path, reason: errnoText()) }
        return (file, Array(head.prefix(pcapHeaderSize)), interfaces, gzip)
    }

    /// For the first bytes of a classic pcap file (micro- or nanosecond magic), whether it is
    /// big-endian; `nil` for anything else.
    static func classicPcapIsBigEndian(_ head: [UInt8]) -> Bool? {
        switch Array(head.prefix(4)) {
        case [0xA1, 0xB2, 0xC3, 0xD4], [0xA1, 0xB2, 0x3C, 0x4D]: true
        case [0xD4, 0xC3, 0xB2, 0xA1], [0x4D, 0x3C, 0xB2, 0xA1]: false
        default: nil
        }
    }

    /// The size of a classic pcap file header: magic, version, zone, accuracy, snapshot
    /// length and link type.
    static let pcapHeaderSize = 24

    /// The largest snapshot length accepted: libpcap keeps it in a signed 32-bit `int`.
    static let maximumSnapLength = UInt32(Int32.max)

    /// A snapshot length that does not fit libpcap's `int`, in the pcap file header or a
    /// pcapng interface: such a file is damaged or hostile, and libpcap would silently clamp
    /// it (and with it the record lengths it accepts). `nil` when every length is in range.
    static func snapLengthProblem(head: [UInt8], interfaces: [PcapngInterface]) -> (location: String, reason: String)? {
        if let interface = interfaces.firstIndex(where: { $0.snapLength > maximumSnapLength }) {
            return (
                "interface \(interface)",
                "pcapng interface \(interface) declares a snapshot length of \(interfaces[interface].snapLength) bytes; "
                    + "at most \(maximumSnapLength) is valid")
        }
        guard head.count == pcapHeaderSize, let bigEndian = classicPcapIsBigEndian(head) else { return nil }
        let bytes = head[16..<20].map(UInt32.init)
        let length = bigEndian
            ? bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]
            : bytes[3] << 24 | bytes[2] << 16 | bytes[1] << 8 | bytes[0]
        guard length > maximumSnapLength else { return nil }
        return ("byte 16", "the file header declares a snapshot length of \(length) bytes; at most \(maximumSnapLength) is valid")
    }

    deinit {
        pcap_close(handle)
        readBuffer.deallocate()
    }

    /// Where libpcap is in what it reads (the decompressed data, for gzip), in bytes, if it
    /// can tell.
    var position: Int64? {
        guard let file = pcap_file(handle) else { return nil }
        let offset = ftello(file)
        return offset >= 0 ? Int64(offset) : nil
    }

    /// The size of the file now, when libpcap reads a regular file directly: less than `size`
    /// if something truncated it while it was read.
    var currentSize: Int64? {
        guard size != nil, let file = pcap_file(handle) else { return nil }
        var status = stat()
        guard fstat(fileno(file), &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// The bytes of the file read so far, for progress: compressed bytes for gzip, so that
    /// they compare with the file's size.
    var bytesRead: Int64? {
        if let gzip { return gzip.gzip.compressedOffset }
        return position
    }

    /// libpcap's text for the last error on this handle.
    var lastError: String {
        String(cString: pcap_geterr(handle))
    }

    /// libpcap's reason, with what it means said plainly where it is libpcap's limit on
    /// pcapng files (one link type and one snapshot length for all interfaces), not damage.
    static func explain(libpcap reason: String, interfaces: [PcapngInterface]) -> String {
        guard isInterfaceLimit(reason) else { return "libpcap: \(reason)" }
        return "libpcap, which Drain reads captures with, cannot read pcapng files whose interfaces have different "
            + "link types or snapshot lengths (this file declares \(describe(interfaces))); split it per interface "
            + "first (e.g. tshark -r FILE -Y \"frame.interface_id == 0\" -w PART) (libpcap: \(reason))"
    }

    /// Whether libpcap's reason is its limit on pcapng interfaces.
    static func isInterfaceLimit(_ reason: String) -> Bool {
        reason.contains("different from the type of the first interface")
            || reason.contains("different from the snapshot length of the first interface")
    }

    /// `3 interface(s) before its first packet: 0 "en0" link type 1 (EN10MB) snaplen 65535, 1 …`,
    /// at most 8 listed.
    static func describe(_ interfaces: [PcapngInterface]) -> String {
        guard !interfaces.isEmpty else { return "its interfaces after its first packet" }
        var parts: [String] = []
        for (index, interface) in interfaces.prefix(8).enumerated() {
            let name = interface.name.map { " " + UntrustedText.quoted($0) } ?? ""
            let type = LinkLayer.describe(dataLinkType: Int32(interface.linkType))
            parts.append("\(index)\(name) \(type) snaplen \(interface.snapLength)")
        }
        if interfaces.count > 8 { parts.append("…") }
        return "\(interfaces.count) interface(s) before its first packet, more may follow: " + parts.joined(separator: ", ")
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
