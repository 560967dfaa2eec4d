#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few socket calls the example needs, for IPv4 on 127.0.0.1 only.
enum Socket {
    /// A new TCP socket, or the `errno` of the failure.
    static func tcp() -> Result<Int32, SystemCallError> {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        return descriptor >= 0 ? .success(descriptor) : .failure(SystemCallError(call: "socket", code: errno))
    }

    /// 127.0.0.1:`port` (0: any free port).
    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Calls `body` with `address` as the `sockaddr` pointer and length the socket calls take.
    static func withSocketAddress<Result>(
        _ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Sends all of `bytes`; the count sent, or the error.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Result<Int, SystemCallError> {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + sent, bytes.count - sent) }
            if result < 0 {
                if errno == EINTR { continue }
                return .failure(SystemCallError(call: "write", code: errno))
            }
            sent += result
        }
        return .success(sent)
    }

    /// Reads until the peer closes the connection, or until `stop` says the bytes so far
    /// are enough.
    static func receive(_ descriptor: Int32, until stop: ([UInt8]) -> Bool = { _ in false }) -> Result<[UInt8], SystemCallError> {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while !stop(received) {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(SystemCallError(call: "read", code: errno))
            }
            if count == 0 { break }
            received += chunk[0..<count]
        }
        return .success(received)
    }
}
