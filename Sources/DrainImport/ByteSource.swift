#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Something bytes can be read from in order: an open file or a buffer in memory.
///
/// Importers read through this so that they stream files in fixed-size chunks and so that
/// tests can feed bytes without touching the disk.
protocol ByteSource {
    /// The total number of bytes, when known in advance (a regular file, a buffer).
    var size: Int? { get }

    /// Reads up to `buffer.count` bytes into `buffer`; returns how many were read, 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int
}

extension ByteSource {
    /// The next `limit` bytes, fewer at the end of the source (the head of a file, for format
    /// detection). O(`limit`) memory.
    mutating func readPrefix(limit: Int) throws(ImportError) -> [UInt8] {
        var prefix = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            var outcome: Result<Int, ImportError> = .success(0)
            prefix.withUnsafeMutableBytes { buffer in
                outcome = Result { () throws(ImportError) in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
            }
            let count = try outcome.get()
            if count == 0 { break }
            filled += count
        }
        prefix.removeSubrange(filled...)
        return prefix
    }
}

/// A file opened read-only with `open(2)` and read with `read(2)`. The owner closes it.
struct FileByteSource: ByteSource {
    let path: String
    let descriptor: Int32
    let size: Int?
    /// Bytes read so far.
    private var offset = 0

    /// Opens `path` for reading. Missing files, directories and files without read
    /// permission are `ImportError.unreadable`.
    init(path: String) throws(ImportError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(path: path, reason: Self.systemMessage(errno))
        }
        var status = stat()
        let statusKnown = fstat(descriptor, &status) == 0
        if statusKnown, (status.st_mode & S_IFMT) == S_IFDIR {
            systemClose(descriptor)
            throw .unreadable(path: path, reason: "is a directory")
        }
        self.path = path
        self.descriptor = descriptor
        self.size = statusKnown && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    /// - Throws: `ImportError.unreadable` when `read(2)` fails, or when a regular file ends
    ///   before the size it had when opened: something truncated it while it was read, and
    ///   what was read would depend on when that happened.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count == 0, let size, offset < size {
                throw .unreadable(path: path, reason: Self.shrankMessage(from: size, at: offset))
            }
            if count >= 0 {
                offset += count
                return count
            }
            if errno == EINTR { continue }
            throw .unreadable(path: path, reason: Self.systemMessage(errno))
        }
    }

    func close() {
        systemClose(descriptor)
    }

    /// The reason given for a file truncated while it was read.
    static func shrankMessage(from size: Int, at offset: Int) -> String {
        "the file shrank while it was read: it had \(size) bytes when opened and ended at byte \(offset)"
    }

    static func systemMessage(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}

/// Bytes already in memory, handed out in reads of at most `buffer.count` bytes.
struct MemoryByteSource: ByteSource {
    let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var size: Int? { bytes.count }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// `read(2)` and `close(2)`, named apart from the methods above that wrap them.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}
