#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DrainTraceWriter

/// Which thread an event happened on: the main thread, or another thread by its kernel id.
///
/// Looking the id up costs a system call or two, so it is done once per thread and kept in
/// a thread-specific slot; later events read the slot (a few nanoseconds).
enum ThreadIdentity {
    /// The calling thread: `0` for the main thread, otherwise its kernel thread id.
    @inline(__always)
    static var current: UInt64 {
        if let cached = pthread_getspecific(slot) {
            return UInt64(UInt(bitPattern: cached)) &- 1
        }
        let identity = lookUp()
        // Stored plus one, so that the main thread's 0 is not the empty slot's nil.
        pthread_setspecific(slot, UnsafeRawPointer(bitPattern: UInt(truncatingIfNeeded: identity &+ 1)))
        return identity
    }

    /// The most bytes `write(_:to:)` writes.
    static let fieldBound = 32

    /// Writes `,"thread":"main"` or `,"thread":ID`.
    @inline(__always)
    static func write(_ identity: UInt64, to line: inout JSONFormatter) {
        line.key(.thread)
        if identity == 0 {
            line.quoted("main")
        } else {
            line.unsigned(identity)
        }
    }

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    #if os(Linux)
    /// Linux: `/proc/thread-self` links to `PID/task/TID`; the main thread is the one whose
    /// id is the process id. (Swift does not import `gettid`, and `syscall` is variadic.)
    private static func lookUp() -> UInt64 {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let length = readlink("/proc/thread-self", buffer.baseAddress!, 63)
            guard length > 0 else { return fallback() }
            var id: UInt64 = 0
            var index = length - 1
            while index >= 0, let digit = UInt8(exactly: buffer[index]), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
                index -= 1
            }
            index += 1
            guard index < length else { return fallback() }
            for position in index..<length {
                id = id &* 10 &+ UInt64(UInt8(bitPattern: buffer[position]) &- UInt8(ascii: "0"))
            }
            return id == UInt64(getpid()) ? 0 : id
        }
    }

    /// Without `/proc`: the pthread handle, unique among live threads; the main thread
    /// cannot be told apart, so no event is attributed to it.
    private static func fallback() -> UInt64 {
        UInt64(pthread_self())
    }
    #elseif canImport(Darwin)
    private static func lookUp() -> UInt64 {
        if pthread_main_np() != 0 { return 0 }
        var id: UInt64 = 0
        pthread_threadid_np(nil, &id)
        return id
    }
    #endif
}
