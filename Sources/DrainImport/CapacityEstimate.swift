import DrainTrace

/// Estimates how many events a trace holds from the length of its first lines, so that the
/// timeline's columns are allocated once instead of growing (and being copied) a dozen times.
///
/// An estimate too low only means some growth later; one too high costs address space that
/// is never touched. O(1) per line.
struct CapacityEstimate {
    /// Lines measured before estimating.
    static let sampleLines = 4096

    private var lines = 0
    private var bytes = 0

    /// Measures one event line; returns the estimated number of events in an input of
    /// `inputSize` bytes once enough lines have been measured (exactly once), else nil.
    @inline(__always)
    mutating func measure(lineLength: Int, inputSize: Int?) -> Int? {
        guard lines < Self.sampleLines else { return nil }
        lines += 1
        bytes += lineLength + 1
        guard lines == Self.sampleLines, let inputSize else { return nil }
        // 10 % slack for lines that grow later in the run.
        return inputSize / max(1, bytes / lines) * 11 / 10
    }
}
