/// Energy over time in fixed bins, per category.
///
/// Bin `b` covers `[b × bin_s, (b + 1) × bin_s)` when the run has no time gaps (`segments`
/// is `nil`). A run with gaps is binned segment by segment: the bins of each segment start at
/// the segment's start, and a gap is a break between two bins, not empty bins.
public struct TimelineBins: Codable, Sendable, Equatable {
    public var binS: Double
    /// Category names, in the order of each row of `energyJ`.
    public var categories: [String]
    /// `energy_j[bin][category]`, joules spent in `[bin × bin_s, (bin + 1) × bin_s)`.
    public var energyJ: [[Double]]
    /// Highest memory footprint sampled in each bin, or `nil` where none was sampled.
    public var memoryPeakBytes: [Double?]
    /// Lifecycle state changes: [time_s, state].
    public var lifecycle: [LifecycleMark]
    /// The run's `mark` events, in time order.
    public var marks: [TimelineMark]
    /// The active segments and their first bins when the run has time gaps; `nil` otherwise.
    public var segments: [TimelineSegment]?

    public init(
        binS: Double, categories: [String], energyJ: [[Double]], memoryPeakBytes: [Double?], lifecycle: [LifecycleMark],
        marks: [TimelineMark] = [], segments: [TimelineSegment]? = nil
    ) {
        self.segments = segments
        self.binS = binS
        self.categories = categories
        self.energyJ = energyJ
        self.memoryPeakBytes = memoryPeakBytes
        self.lifecycle = lifecycle
        self.marks = marks
    }

    enum CodingKeys: String, CodingKey {
        case binS = "bin_s"
        case categories
        case energyJ = "energy_j"
        case lifecycle, marks
        case memoryPeakBytes = "memory_peak_bytes"
        case segments
    }

    /// The start time of bin `bin`, seconds: `bin × bin_s`, or from its segment's start in a
    /// run with gaps. O(log segments).
    public func startS(ofBin bin: Int) -> Double {
        guard let segments, let segment = segments.last(where: { $0.firstBin <= bin }) else { return Double(bin) * binS }
        return segment.startS + Double(bin - segment.firstBin) * binS
    }
}
