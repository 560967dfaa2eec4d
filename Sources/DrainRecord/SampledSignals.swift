#if os(Linux)
/// Which sampled signals become events. Each kind of event comes from one source only, so
/// nothing is counted twice when strace or a capture supplies a more precise one
/// (docs/recorder.md, "One source per signal").
public struct SampledSignals: OptionSet, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// CPU time → `cpu` slices.
    public static let cpu = SampledSignals(rawValue: 1 << 0)
    /// Voluntary context switches → `wakeup` events. Off under strace, whose ptrace stops
    /// are context switches too; strace's own wakeups and polls replace them.
    public static let wakeups = SampledSignals(rawValue: 1 << 1)
    /// `write_bytes` → `disk` writes. Off under strace, whose writes carry paths.
    public static let disk = SampledSignals(rawValue: 1 << 2)
    /// Resident set size → `memory` events.
    public static let memory = SampledSignals(rawValue: 1 << 3)
    /// Interface counters → `net` events. Off under strace (per-socket traffic) and with a
    /// capture (the packets).
    public static let network = SampledSignals(rawValue: 1 << 4)

    public static let all: SampledSignals = [.cpu, .wakeups, .disk, .memory, .network]

    /// The sampled signals for a recording with or without strace and a capture.
    public static func recorded(strace: Bool, capture: Bool) -> SampledSignals {
        var signals = SampledSignals.all
        if strace { signals.subtract([.wakeups, .disk, .network]) }
        if capture { signals.remove(.network) }
        return signals
    }
}
#endif
