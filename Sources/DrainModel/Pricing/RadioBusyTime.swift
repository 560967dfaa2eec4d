import DrainTrace

/// How long each radio was out of idle within a few windows of a priced run ("how long was the
/// radio up during this transfer"), summed from the radio's segments as a replay of the run
/// gives them (`RadioReplay`): the run does not keep its segments.
///
/// A sink of its own, so that it can be fed segments directly. O(windows) per segment.
public struct RadioBusyTime: RadioEnergySink {
    /// A stretch of time on the radio carrying `radio` (`.wifi` or `.cellular`).
    public struct Window: Sendable, Equatable {
        public var radio: LinkKind
        public var start: Nanoseconds
        public var end: Nanoseconds

        public init(radio: LinkKind, start: Nanoseconds, end: Nanoseconds) {
            self.radio = radio
            self.start = start
            self.end = end
        }
    }

    public let windows: [Window]
    /// The time out of idle within each window, in the order of `windows`.
    public private(set) var busy: [Nanoseconds]

    public init(windows: [Window]) {
        self.windows = windows
        busy = [Nanoseconds](repeating: 0, count: windows.count)
    }

    /// Each window's time out of idle on its radio in the priced run of `timeline` under
    /// `model`: one replay of its radios. O(rows + segments × windows).
    public static func measure(_ windows: [Window], in timeline: Timeline, model: DeviceModel) -> [Nanoseconds] {
        var measured = RadioBusyTime(windows: windows)
        guard !windows.isEmpty else { return measured.busy }
        var replay = RadioReplay(timeline, model: model)
        replay.run(into: &measured)
        return measured.busy
    }

    /// Adds the part of `segment` (if not idle) that lies in each window of its radio.
    public mutating func record(_ segment: RadioSegment) {
        guard segment.state != .idle else { return }
        let onWiFi = segment.link == .wifi
        for index in windows.indices where (windows[index].radio == .wifi) == onWiFi {
            let window = windows[index]
            busy[index] += max(0, min(segment.end, window.end) - max(segment.start, window.start))
        }
    }

    public mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {}
}
