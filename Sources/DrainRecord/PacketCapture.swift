#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import CPcap

/// Captures the packets of one interface with libpcap on a thread of its own and dumps them
/// into a pcap file beside the trace.
///
/// The capture is opened and activated before the command starts, so a missing privilege
/// or interface is reported before anything runs. Packets go to a temporary file that
/// `finish()` renames into place; `discard()` deletes it.
final class PacketCapture: @unchecked Sendable {
    // @unchecked: the handle and dumper are used by the capture thread between `start()`
    // and the join in `finish()`, and by the calling thread only outside that window
    // (`pcap_breakloop` is the one call libpcap allows from another thread).
    let interface: String
    private let handle: OpaquePointer
    private let dumper: OpaquePointer
    private let file: OutputFile
    private var thread: pthread_t?
    private var failure: String?

    /// Opens `interface` for capture and a temporary dump file for `path`.
    ///
    /// - Throws: `.capturePermissionDenied` (77) without the privilege to capture,
    ///   `.usage` (64) for an interface that does not exist, `.captureFailed` (69) for other
    ///   libpcap failures, `.cannotWrite` (73) when the file cannot be created.
    init(interface: String, path: String) throws(RecordError) {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        guard let handle = pcap_create(interface, &errorBuffer) else {
            throw .captureFailed(interface: interface, message: String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        pcap_set_snaplen(handle, 262_144)
        pcap_set_promisc(handle, 0)
        pcap_set_timeout(handle, 100)
        pcap_set_immediate_mode(handle, 1)
        let status = pcap_activate(handle)
        if status < 0 {
            let detail = String(cString: pcap_geterr(handle))
            let message = detail.isEmpty ? String(cString: pcap_statustostr(status)) : detail
            pcap_close(handle)
            switch status {
            case PCAP_ERROR_PERM_DENIED, PCAP_ERROR_PROMISC_PERM_DENIED:
                throw .capturePermissionDenied(interface: interface, message: message)
            case PCAP_ERROR_NO_SUCH_DEVICE:
                throw .usage("--capture: no network interface named \(interface.debugDescription) (\(message))")
            default:
                throw .captureFailed(interface: interface, message: message)
            }
        }
        let file: OutputFile
        do {
            file = try OutputFile(path: path)
        } catch {
            pcap_close(handle)
            throw error
        }
        guard let stream = fdopen(dup(file.descriptor), "wb"), let dumper = pcap_dump_fopen(handle, stream) else {
            let message = String(cString: pcap_geterr(handle))
            pcap_close(handle)
            file.discard()
            throw .cannotWrite(path: path, reason: message)
        }
        self.interface = interface
        self.handle = handle
        self.dumper = dumper
        self.file = file
    }

    /// Starts the capture thread.
    func start() throws(RecordError) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            let capture = Unmanaged<PacketCapture>.fromOpaque(context!).takeRetainedValue()
            capture.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<PacketCapture>.fromOpaque(context).release()
            throw .system(call: "pthread_create", reason: RecordError.reason(result))
        }
        self.thread = thread
    }

    private func run() {
        // Signals are for the recorder's main thread, which waits for them (SignalGate); a
        // SIGTERM delivered here would take the default action and kill the recorder.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        let user = UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self)
        while true {
            let count = pcap_dispatch(handle, -1, { user, header, bytes in pcap_dump(user, header, bytes) }, user)
            if count == PCAP_ERROR_BREAK { return }
            if count < 0 {
                failure = String(cString: pcap_geterr(handle))
                return
            }
        }
    }

    /// What the capture saw: packets received and dropped by the kernel.
    struct Statistics: Sendable {
        var received: UInt32
        var dropped: UInt32
    }

    /// Stops the capture, writes the file out and renames it to its path.
    func finish() throws(RecordError) -> Statistics {
        stopThread()
        var counters = pcap_stat()
        let statistics =
            pcap_stats(handle, &counters) == 0
            ? Statistics(received: counters.ps_recv, dropped: counters.ps_drop) : Statistics(received: 0, dropped: 0)
        let flushed = pcap_dump_flush(dumper) == 0
        pcap_dump_close(dumper)
        pcap_close(handle)
        if let failure {
            file.discard()
            throw .captureFailed(interface: interface, message: failure)
        }
        guard flushed else {
            file.discard()
            throw .cannotWrite(path: file.path, reason: "the packets could not be written out")
        }
        try file.commit()
        return statistics
    }

    /// Stops the capture and deletes the temporary file.
    func discard() {
        stopThread()
        pcap_dump_close(dumper)
        pcap_close(handle)
        file.discard()
    }

    private func stopThread() {
        guard let thread else { return }
        pcap_breakloop(handle)
        pthread_join(thread, nil)
        self.thread = nil
    }
}
#endif
