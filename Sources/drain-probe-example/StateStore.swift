import DrainProbe

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sync engine's state file, rewritten whole and made durable with `fsync` after
/// every sync, the way many apps persist a small JSON state — recorded as `disk` events.
struct StateStore: Sendable {
    let path: String
    let probe: DrainProbe

    /// Reads the state file, if there is one; records a `disk` read.
    func load() -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count <= 0 { break }
            contents += chunk[0..<count]
        }
        probe.disk(.read, bytes: contents.count, path: path, fileSize: contents.count)
        return contents
    }

    /// Replaces the file's contents with `state` and flushes it to storage.
    func save(_ state: [UInt8]) throws(SystemCallError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemCallError(call: "open \(path)", code: errno) }
        defer { close(descriptor) }
        var written = 0
        while written < state.count {
            let count = state.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, state.count - written) }
            guard count > 0 else { throw SystemCallError(call: "write \(path)", code: errno) }
            written += count
        }
        probe.disk(.write, bytes: written, path: path, fileSize: written)
        guard fsync(descriptor) == 0 else { throw SystemCallError(call: "fsync \(path)", code: errno) }
        probe.disk(.fsync, path: path, fileSize: written)
    }
}
