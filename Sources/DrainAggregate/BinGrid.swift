import Algorithms
import DrainTrace

/// Where priced energy lands on a run's timeline chart: bins of one width laid over the run's
/// segments (a run with time gaps is binned segment by segment, so a gap is a break, not empty
/// bins), numbered across all segments. Energy charged after a segment's last bin and before
/// the next segment (a radio tail that ran on past the segment's last event) lands in that
/// last bin; energy before the first segment is not binned.
///
/// The last segment may be open: pricing lays the grid before it knows where the run ends (a
/// radio tail may outlast the last event), so an open last segment takes bins as energy
/// reaches them, and `close(at:)` fixes its length once the run's end is known. A run that
/// ends in a time gap has its last segment closed from the start: energy charged in that gap
/// is not binned.
public struct BinGrid: Sendable, Equatable {
    /// Consecutive bins of one width from `origin`, the first of them bin `firstBin` of the
    /// grid. A stretch between two segments is a piece of one bin, as wide as the stretch,
    /// that is the previous segment's last bin.
    public struct Piece: Sendable, Equatable {
        public let origin: Nanoseconds
        public let width: Nanoseconds
        public internal(set) var count: Int
        public let firstBin: Int
    }

    /// The width of the segments' bins, in nanoseconds.
    public let width: Nanoseconds
    /// Where each segment starts, and its first bin.
    public let segmentStarts: [(start: Nanoseconds, firstBin: Int)]
    /// The segments' bins and the stretches between segments, in time order.
    public private(set) var pieces: [Piece]
    /// Whether the last segment still takes the bins energy reaches (`close(at:)` ends it).
    public private(set) var isOpen: Bool

    /// Bins `width` nanoseconds wide over `segments` (in time order, not overlapping), each
    /// segment at least one bin, the last one open unless `openEnd` is false. No segments, no
    /// bins. O(segments).
    ///
    /// - Precondition: `width > 0`.
    public init(segments: [(start: Nanoseconds, end: Nanoseconds)], width: Nanoseconds, openEnd: Bool = true) {
        precondition(width > 0, "a bin grid needs a positive width")
        self.width = width
        isOpen = openEnd
        var pieces: [Piece] = []
        var starts: [(start: Nanoseconds, firstBin: Int)] = []
        var next = 0
        for (index, segment) in segments.enumerated() {
            let count = Self.binCount(from: segment.start, to: segment.end, width: width)
            pieces.append(Piece(origin: segment.start, width: width, count: count, firstBin: next))
            starts.append((segment.start, next))
            next += count
            let after = segment.start + Int64(count) * width
            if index + 1 < segments.count, segments[index + 1].start > after {
                pieces.append(Piece(origin: after, width: segments[index + 1].start - after, count: 1, firstBin: next - 1))
            }
        }
        self.pieces = pieces
        segmentStarts = starts
    }

    /// Bins needed from `start` to `end`: at least one.
    static func binCount(from start: Nanoseconds, to end: Nanoseconds, width: Nanoseconds) -> Int {
        max(1, Int((max(start, end) - start + width - 1) / width))
    }

    public static func == (lhs: BinGrid, rhs: BinGrid) -> Bool {
        lhs.width == rhs.width && lhs.pieces == rhs.pieces && lhs.isOpen == rhs.isOpen
            && lhs.segmentStarts.elementsEqual(rhs.segmentStarts) { $0 == $1 }
    }

    /// Bins in the grid.
    public var binCount: Int {
        guard let last = pieces.last else { return 0 }
        return last.firstBin + last.count
    }

    /// The bin of `time` for marks placed on the chart (memory peaks, lifecycle changes): the
    /// bin of the segment it lies in, a time in a gap counting to the segment before it, a
    /// time past a segment's bins to its last bin. O(log segments).
    ///
    /// - Precondition: the grid has a segment.
    public func bin(of time: Nanoseconds) -> Int {
        // The last segment starting at or before `time`, or the first.
        let low = max(0, segmentStarts.partitioningIndex { $0.start > time } - 1)
        let last = (low + 1 < segmentStarts.count ? segmentStarts[low + 1].firstBin : binCount) - 1
        return min(last, segmentStarts[low].firstBin + max(0, Int((time - segmentStarts[low].start) / width)))
    }

    /// Grows the open last segment so that it has a bin for `time`; returns how many bins it
    /// gained. O(1).
    mutating func extend(toCover time: Nanoseconds) -> Int {
        guard isOpen, let last = pieces.last, time >= last.origin else { return 0 }
        let needed = Int((time - last.origin) / last.width) + 1
        guard needed > last.count else { return 0 }
        pieces[pieces.count - 1].count = needed
        return needed - last.count
    }

    /// Ends an open last segment at `end` (at least one bin), and returns the number of bins
    /// the grid then has. O(1).
    mutating func close(at end: Nanoseconds) -> Int {
        if isOpen, let last = pieces.last {
            pieces[pieces.count - 1].count = Self.binCount(from: last.origin, to: end, width: last.width)
        }
        isOpen = false
        return binCount
    }
}

extension BinGrid {
    /// The most bins an automatically chosen width gives (a run with more time gaps than this
    /// has one bin per segment).
    public static let maximumBins = 600

    /// The grid of a run's timeline chart: its segments between time gaps, from time zero to
    /// the run's end, in bins `binSeconds` wide, or of the width `width(forSegments:)` picks
    /// for the segments' lengths. The width is chosen before pricing, for the events' span:
    /// a radio tail that outlasts the last event adds bins of that width, unless the run ends
    /// in a time gap. O(gaps).
    public init(chartOf timeline: Timeline, binSeconds: Double? = nil) {
        let segments = timeline.gaps.segments(end: timeline.end)
        let seconds = binSeconds ?? Self.width(forSegments: segments.map { Clock.seconds($0.end - $0.start) })
        self.init(segments: segments, width: max(1, Clock.nanoseconds(seconds)), openEnd: !timeline.gaps.trailing)
    }

    /// The smallest round width (1, 2, 5 × 10^k seconds, at least 1 s) giving at most
    /// `maximumBins` bins over segments of these lengths (seconds), each segment at least one
    /// bin; the width that gives every segment one bin when no width gives few enough.
    public static func width(forSegments lengths: [Double]) -> Double {
        let longest = lengths.max() ?? 0
        var magnitude = 1.0
        while true {
            for step in [1.0, 2.0, 5.0] {
                let width = step * magnitude
                let bins = lengths.reduce(0.0) { $0 + max(1, ($1 / width).rounded(.up)) }
                if bins <= Double(maximumBins) || width >= longest { return width }
            }
            magnitude *= 10
        }
    }
}
