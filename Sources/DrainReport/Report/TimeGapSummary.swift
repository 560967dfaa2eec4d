/// The time gaps of a run and the times that went backwards in its inputs
/// (`docs/reports.md`, *Time gaps and active duration*).
///
/// Present in a report only when the run has a gap or an input had a backward time jump;
/// absent from reports written before it existed, which had neither kind of handling.
public struct TimeGapSummary: Codable, Sendable, Equatable {
    /// A stretch without events longer than this (seconds) is a gap.
    public var thresholdS: Double
    /// Every gap, in time order.
    public var gaps: [Gap]
    /// Events or packets whose time was earlier than the one before them, in input order.
    public var backwardJumps: Int
    /// The largest of those steps back, seconds; absent when there were none.
    public var largestBackwardJumpS: Double?

    /// One stretch without events: from the end of the last event before it to the next.
    public struct Gap: Codable, Sendable, Equatable {
        public var startS: Double
        public var endS: Double
        public var lengthS: Double

        public init(startS: Double, endS: Double, lengthS: Double) {
            self.startS = startS
            self.endS = endS
            self.lengthS = lengthS
        }

        enum CodingKeys: String, CodingKey {
            case endS = "end_s"
            case lengthS = "length_s"
            case startS = "start_s"
        }
    }

    public init(thresholdS: Double, gaps: [Gap], backwardJumps: Int = 0, largestBackwardJumpS: Double? = nil) {
        self.thresholdS = thresholdS
        self.gaps = gaps
        self.backwardJumps = backwardJumps
        self.largestBackwardJumpS = largestBackwardJumpS
    }

    enum CodingKeys: String, CodingKey {
        case backwardJumps = "backward_jumps"
        case gaps
        case largestBackwardJumpS = "largest_backward_jump_s"
        case thresholdS = "threshold_s"
    }
}
