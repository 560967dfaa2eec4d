#if os(Linux)
import DrainTrace

/// The byte counters of the network interfaces in `/proc/net/dev` (the recorder's network
/// namespace, system-wide: every process's traffic, not only the command's).
struct NetworkCounters {
    private struct Interface {
        var name: String
        var nameBytes: [UInt8]
        var link: LinkKind
        var received: Int64
        var transmitted: Int64
    }

    private let file: ProcFile?
    private var interfaces: [Interface] = []

    init() {
        file = ProcFile(path: "/proc/net/dev")
    }

    /// Reads the counters and appends each interface's growth since the last read to
    /// `traffic` (an interface seen for the first time starts from its current counters).
    /// Allocates only for an interface not seen before.
    mutating func sample(buffer: UnsafeMutableRawBufferPointer, into traffic: inout [IntervalSample.InterfaceTraffic]) {
        _ = file?.read(into: buffer) { bytes in
            NetDevParser.forEachInterface(bytes) { name, received, transmitted in
                guard let index = interfaces.firstIndex(where: { $0.nameBytes.elementsEqual(name) }) else {
                    let bytes = Array(name)
                    interfaces.append(
                        Interface(
                            name: String(decoding: bytes, as: UTF8.self), nameBytes: bytes, link: LinkKind(linuxInterfaceName: name),
                            received: received, transmitted: transmitted))
                    return
                }
                // A counter that went down was reset (the interface was re-created).
                let receivedDelta = max(0, received - interfaces[index].received)
                let transmittedDelta = max(0, transmitted - interfaces[index].transmitted)
                interfaces[index].received = received
                interfaces[index].transmitted = transmitted
                if receivedDelta > 0 || transmittedDelta > 0 {
                    traffic.append(
                        IntervalSample.InterfaceTraffic(
                            name: interfaces[index].name, link: interfaces[index].link, received: receivedDelta,
                            transmitted: transmittedDelta))
                }
            }
        }
    }

    func close() {
        file?.close()
    }
}
#endif
