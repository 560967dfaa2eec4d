/// Energy over time in fixed bins, per category.
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

    public init(
        binS: Double, categories: [String], energyJ: [[Double]], memoryPeakBytes: [Double?], lifecycle: [LifecycleMark],
        marks: [TimelineMark] = []
    ) {
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
        case memoryPeakBytes = "memory_peak_bytes"
        case lifecycle, marks
    }
}
