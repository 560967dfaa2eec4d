#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
// `@preconcurrency`: Swift 6 otherwise refuses to read the C global `mach_task_self_`.
@preconcurrency import Darwin
#endif

/// The process's memory footprint, as the system reports it.
enum MemoryFootprint {
    #if os(Linux)
    /// Linux: resident pages (the second field of `/proc/self/statm`) × the page size, the
    /// same figure as `VmRSS` in `/proc/self/status`. It counts clean file-backed pages
    /// (mapped code, libraries) too, so it reads higher than Darwin's `phys_footprint`.
    /// `nil` if `/proc` cannot be read. One open, read and close: a few microseconds.
    static func current() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            let length = read(descriptor, buffer.baseAddress!, buffer.count)
            guard length > 0 else { return nil }
            // "size resident shared text lib data dt": skip the first field.
            var index = 0
            while index < length && buffer[index] != UInt8(ascii: " ") { index += 1 }
            index += 1
            var pages = 0
            var digits = 0
            while index < length, buffer[index] >= UInt8(ascii: "0"), buffer[index] <= UInt8(ascii: "9") {
                pages = pages &* 10 &+ Int(buffer[index] &- UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            guard digits > 0 else { return nil }
            return pages &* Int(sysconf(Int32(_SC_PAGESIZE)))
        }
    }
    #elseif canImport(Darwin)
    /// Darwin: `phys_footprint` from `task_info(TASK_VM_INFO)`, the figure iOS compares with
    /// an app's memory limit and Xcode's memory gauge shows. `nil` if the call fails.
    static func current() -> Int? {
        var info = task_vm_info_data_t()
        var count = mach_msg_type_number_t(MemoryLayout<task_vm_info_data_t>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) { words in
                task_info(mach_task_self_, task_flavor_t(TASK_VM_INFO), words, &count)
            }
        }
        guard result == KERN_SUCCESS else { return nil }
        return Int(info.phys_footprint)
    }
    #endif
}
