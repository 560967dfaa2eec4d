import Algorithms
import DrainTrace

/// When each radio was out of idle over a priced run, for "how long was the radio up between
/// two instants", read from the run's radio segments in place.
///
/// Nothing is copied or indexed beyond where each radio's segments lie: the rules that ask
/// run when memory peaks, and they ask about a few transfers, not about every segment.
public struct RadioBusyTime: Sendable {
    private let segments: RadioSegments
    private let wifi: Range<Int>
    private let cellular: Range<Int>

    /// Finds where the Wi-Fi and the cellular segments of `radio` lie (each link's lie together,
    /// in time order: `RadioActivity.segments`). O(segments), no allocation.
    public init(_ radio: RadioActivity) {
        segments = radio.segments
        wifi = Self.range(in: segments) { $0 == .wifi }
        cellular = Self.range(in: segments) { $0 != .wifi }
    }

    private static func range(in segments: RadioSegments, of link: (LinkKind) -> Bool) -> Range<Int> {
        guard let first = segments.firstIndex(where: { link($0.link) }) else { return 0..<0 }
        let last = segments.lastIndex { link($0.link) } ?? first
        return first..<last + 1
    }

    /// Time the radio carrying `radioLink` (`.wifi` or `.cellular`) was out of idle within
    /// `[start, end]`. O(log s + k) for s segments of the radio and the k that overlap the window.
    public func busy(on radioLink: LinkKind, from start: Nanoseconds, to end: Nanoseconds) -> Nanoseconds {
        guard end > start else { return 0 }
        let track = segments[radioLink == .wifi ? wifi : cellular]
        var busy: Nanoseconds = 0
        // Segments of one radio follow each other without overlapping, so their ends are in order.
        var index = track.partitioningIndex { $0.end > start }
        while index < track.endIndex, track[index].start < end {
            let segment = track[index]
            if segment.state != .idle { busy += max(0, min(segment.end, end) - max(segment.start, start)) }
            index += 1
        }
        return busy
    }
}
