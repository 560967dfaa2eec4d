import CZlib

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A gzip-compressed capture (`tcpdump -z gzip`, `capture.pcap.gz`) as a `FILE *` that
/// libpcap reads (`fopencookie`): each read of libpcap decompresses the next bytes of the
/// file through `GzipByteSource`, so a compressed capture streams in bounded memory and
/// libpcap reads it exactly as it reads the plain file.
final class GzipCaptureStream {
    private let file: FileByteSource
    let gzip: GzipByteSource<FileByteSource>
    /// The first error decompression raised: libpcap sees it only as a failed read.
    private(set) var failure: ImportError?

    /// Opens the file at `path`.
    ///
    /// - Throws: `ImportError.unreadable` if it cannot be opened.
    init(path: String) throws(ImportError) {
        file = try FileByteSource(path: path)
        gzip = GzipByteSource(file, path: path)
    }

    deinit {
        file.close()
    }

    /// A `FILE *` that reads the decompressed bytes, or `nil` if the C library cannot make
    /// one. It keeps this stream alive until it is closed (by `fclose` or `pcap_close`).
    /// Telling the position (`ftello`) gives the decompressed offset; it cannot seek.
    func open() -> UnsafeMutablePointer<FILE>? {
        let cookie = Unmanaged.passRetained(self).toOpaque()
        guard let file = Self.openFile(cookie: cookie) else {
            Unmanaged<GzipCaptureStream>.fromOpaque(cookie).release()
            return nil
        }
        return file
    }

    /// A C stream whose reads, position queries and close call back with `cookie`: glibc's and
    /// musl's `fopencookie`, Apple's `funopen`.
    private static func openFile(cookie: UnsafeMutableRawPointer) -> UnsafeMutablePointer<FILE>? {
        #if canImport(Darwin)
        funopen(
            cookie,
            { cookie, buffer, size in
                let count = GzipCaptureStream.stream(cookie).read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
                return Int32(truncatingIfNeeded: count)
            },
            nil,
            { cookie, offset, whence in GzipCaptureStream.stream(cookie).position(offset: Int64(offset), whence: whence) ?? -1 },
            { cookie in GzipCaptureStream.close(cookie) })
        #else
        drain_fopencookie(
            cookie, "rb",
            drain_cookie_functions(
                read: { cookie, buffer, size in
                    GzipCaptureStream.stream(cookie).read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size))
                },
                write: nil,
                seek: { cookie, offset, whence in
                    guard let offset,
                        let position = GzipCaptureStream.stream(cookie).position(offset: offset.pointee, whence: whence)
                    else { return -1 }
                    offset.pointee = position
                    return 0
                },
                close: { cookie in GzipCaptureStream.close(cookie) }))
        #endif
    }

    private static func stream(_ cookie: UnsafeMutableRawPointer?) -> GzipCaptureStream {
        Unmanaged<GzipCaptureStream>.fromOpaque(cookie!).takeUnretainedValue()
    }

    /// Ends the reference the C stream held.
    private static func close(_ cookie: UnsafeMutableRawPointer?) -> Int32 {
        Unmanaged<GzipCaptureStream>.fromOpaque(cookie!).release()
        return 0
    }

    /// The answer to the only seek a stream that cannot seek takes, the query `ftello` makes
    /// (0 from the current position): the decompressed offset. `nil` (with `errno` set) for
    /// any other.
    private func position(offset: Int64, whence: Int32) -> Int64? {
        guard offset == 0, whence == SEEK_CUR else {
            errno = ESPIPE
            return nil
        }
        return gzip.decompressedOffset
    }

    /// Decompresses into `buffer` for the C library; a failure is kept for `failure` and
    /// reported to libpcap as an I/O error.
    private func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard failure == nil else {
            errno = EIO
            return -1
        }
        do {
            return try gzip.read(into: buffer)
        } catch {
            failure = error
            errno = EIO
            return -1
        }
    }

    /// Up to `limit` decompressed bytes from the start of the gzip file at `path` (its magic
    /// number and pcapng interface blocks are read from them), fewer if it is shorter.
    ///
    /// - Throws: `ImportError.unreadable` if the file cannot be read; `.badData` naming the
    ///   compressed byte if the data is damaged before `limit`.
    static func head(path: String, limit: Int) throws(ImportError) -> [UInt8] {
        let file = try FileByteSource(path: path)
        defer { file.close() }
        var gzip = GzipByteSource(file, path: path)
        return try gzip.readPrefix(limit: limit)
    }
}
