import Algorithms
import DrainTrace

/// When each radio was out of idle over a priced run, for "how long was the radio up between
/// two instants" in O(log segments).
public struct RadioBusyTime: Sendable {
    private struct Track {
        var starts: [Nanoseconds] = []
        var ends: [Nanoseconds] = []
        /// `before[i]`: busy time of the segments before segment `i`.
        var before: [Nanoseconds] = []
    }

    private var wifi = Track()
    private var cellular = Track()

    /// Indexes the non-idle segments of `radio`. O(segments).
    public init(_ radio: RadioActivity) {
        for segment in radio.segments where segment.state != .idle && segment.end > segment.start {
            if segment.link == .wifi {
                Self.add(segment, to: &wifi)
            } else {
                Self.add(segment, to: &cellular)
            }
        }
    }

    private static func add(_ segment: RadioSegment, to track: inout Track) {
        let previous = track.before.last.map { $0 + (track.ends[track.ends.count - 1] - track.starts[track.starts.count - 1]) } ?? 0
        track.starts.append(segment.start)
        track.ends.append(segment.end)
        track.before.append(previous)
    }

    /// Time the radio carrying `radioLink` (`.wifi` or `.cellular`) was out of idle within
    /// `[start, end]`. O(log segments).
    public func busy(on radioLink: LinkKind, from start: Nanoseconds, to end: Nanoseconds) -> Nanoseconds {
        guard end > start else { return 0 }
        let track = radioLink == .wifi ? wifi : cellular
        return Self.busy(track, before: end) - Self.busy(track, before: start)
    }

    /// Busy time in `(-∞, instant)`.
    private static func busy(_ track: Track, before instant: Nanoseconds) -> Nanoseconds {
        let after = track.starts.partitioningIndex { $0 >= instant }
        guard after > 0 else { return 0 }
        let last = after - 1
        return track.before[last] + min(track.ends[last], instant) - track.starts[last]
    }
}
