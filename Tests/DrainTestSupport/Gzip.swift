import CZlib

/// gzip compression through zlib, so that tests make their own `.gz` inputs.
public enum Gzip {
    /// `bytes` as one gzip member (RFC 1952) at zlib's compression `level` (0 stores the
    /// bytes in stored blocks, 9 compresses most). The header holds no name and no time, so the
    /// same bytes give the same output.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        precondition(drain_deflate_init_gzip(stream, level) == Z_OK, "zlib's deflateInit2 failed")
        defer { deflateEnd(stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))) + 32)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = UInt32(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = UInt32(target.count)
                precondition(deflate(stream, Z_FINISH) == Z_STREAM_END, "deflateBound is enough for one call")
                return target.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(output[..<written])
    }

    /// `text`'s UTF-8 bytes as one gzip member.
    public static func compress(_ text: String, level: Int32 = 6) -> [UInt8] {
        compress(Array(text.utf8), level: level)
    }
}
