#if os(Linux)
/// What a recording produced.
public struct RecordResult: Sendable, Equatable {
    /// The command's exit status as a shell reports it: its own, or 128 + the signal that
    /// killed it.
    public var exitStatus: Int32
    public var tracePath: String
    /// The packet capture, with `--capture`.
    public var capturePath: String?
    public var samples: Int
    /// Lines after the header: samples' and strace's events.
    public var events: Int
    /// Events that came from strace, with `--strace`.
    public var straceEvents: Int
    /// Packets libpcap saw and the kernel dropped, with `--capture`.
    public var packetsCaptured: Int
    public var packetsDropped: Int
}

extension RecordResult {
    /// One line for the terminal: what was written and how the command exited.
    public var summary: String {
        var text = "recorded \(samples) samples, \(events) events into \(tracePath)"
        if straceEvents > 0 { text += " (\(straceEvents) from strace)" }
        if let capturePath { text += "; \(packetsCaptured) packets into \(capturePath) (\(packetsDropped) dropped)" }
        return text + "; the command exited with status \(exitStatus)"
    }
}
#endif
