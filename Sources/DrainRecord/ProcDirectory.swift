#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// A `/proc` directory (`/proc` itself, or `/proc/PID/task`) kept open and listed again on
/// every sample with `rewinddir`, which makes the kernel list the current entries; nothing
/// is opened or allocated per sample.
struct ProcDirectory {
    private let handle: OpaquePointer

    init?(path: String) {
        guard let handle = opendir(path) else { return nil }
        self.handle = handle
    }

    /// Calls `body` with the number of each entry whose name is a decimal number (the pids
    /// in `/proc`, the thread ids in a task directory).
    func forEachNumber(_ body: (Int32) -> Void) {
        rewinddir(handle)
        while let entry = readdir(handle) {
            let number = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int32? in
                var value: Int32 = 0
                var index = 0
                while index < name.count, name[index] != 0 {
                    guard ProcText.isDigit(name[index]), value < Int32.max / 10 - 9 else { return nil }
                    value = value * 10 + Int32(name[index] - UInt8(ascii: "0"))
                    index += 1
                }
                return index > 0 ? value : nil
            }
            if let number { body(number) }
        }
    }

    func close() {
        closedir(handle)
    }
}
#endif
