/// One active segment of a run with gaps, as the binned timeline lays it out: its bins start
/// at `startS`, not at `firstBin × bin_s`, and the gap before the next segment has no bins.
public struct TimelineSegment: Codable, Sendable, Equatable {
    public var startS: Double
    public var endS: Double
    /// The index of the segment's first bin in `TimelineBins.energyJ`; its bins run to the
    /// next segment's first bin (or the last bin).
    public var firstBin: Int

    public init(startS: Double, endS: Double, firstBin: Int) {
        self.startS = startS
        self.endS = endS
        self.firstBin = firstBin
    }

    enum CodingKeys: String, CodingKey {
        case endS = "end_s"
        case firstBin = "first_bin"
        case startS = "start_s"
    }
}
