#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file that Drain holds in memory to parse (a model, a rule configuration, a
/// budget, a saved report or baseline), refusing one larger than a limit before reading it.
///
/// The limit is what keeps a hostile or mistaken file (a capture passed as `--budget`, a
/// 10 GB "report") from exhausting memory: parsers of these formats build a tree of the
/// whole document, several times the file's size.
public enum BoundedFileRead {
    /// Why the file was not read.
    public enum Failure: Error, Equatable, Sendable {
        /// The system's reason (`No such file or directory`), or `it is a directory`.
        case unreadable(String)
        /// The file holds more than `limit` bytes: `size` is exact for a regular file, and a
        /// lower bound (`limit + 1`) for a pipe or device.
        case tooLarge(size: Int64, limit: Int)
    }

    /// The bytes of `path`, at most `limit` of them. O(file size).
    public static func read(path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(Self.errnoText()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(Self.errnoText()) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .unreadable("it is a directory") }
        let regular = status.st_mode & S_IFMT == S_IFREG
        if regular, Int64(status.st_size) > Int64(limit) {
            throw .tooLarge(size: Int64(status.st_size), limit: limit)
        }
        // One byte more than the limit tells a pipe that is too long from one that fits.
        let capacity = regular ? Int(status.st_size) + 1 : min(limit + 1, 64 << 10)
        var bytes = [UInt8](repeating: 0, count: capacity)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= limit else { break }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(Self.errnoText())
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { throw .tooLarge(size: Int64(filled), limit: limit) }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// `1 MiB`, `64 MiB`: how limits read in messages.
    public static func describe(limit: Int) -> String {
        limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

/// `read(2)` at file scope, where the name is not shadowed by `BoundedFileRead.read`.
private func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}
