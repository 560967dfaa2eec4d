#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call (a socket or file operation) and its `errno`.
struct SystemCallError: Error, CustomStringConvertible {
    var call: String
    var code: Int32

    var description: String { "\(call): \(String(cString: strerror(code)))" }
}
