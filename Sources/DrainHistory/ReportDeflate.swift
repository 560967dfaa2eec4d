import CZlib
import Foundation

/// The stored report's compression: zlib's format (RFC 1950) with its length kept beside it,
/// so that inflating needs one allocation and checks the result's size.
enum ReportDeflate {
    /// `bytes` compressed at zlib's default level. O(n).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &capacity, input.baseAddress, uLong(input.count), Z_DEFAULT_COMPRESSION)
            }
        }
        // compressBound is an upper bound: compress2 cannot run out of room.
        precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
        output.removeSubrange(Int(capacity)...)
        return output
    }

    /// The `size` bytes that `deflated` holds, or `nil` when it is damaged or of another size.
    static func inflate(_ deflated: [UInt8], size: Int) -> [UInt8]? {
        guard size >= 0, size <= 1 << 32 else { return nil }
        var length = uLong(size)
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let status = output.withUnsafeMutableBufferPointer { out in
            deflated.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(length) == size else { return nil }
        output.removeSubrange(size...)
        return output
    }
}
