import DrainTrace

/// A run's radio segments, kept by column: 26 bytes a segment where an array of
/// `RadioSegment`s takes 32 (its 26 bytes padded to its 8-byte alignment). A run has about as
/// many segments as bursts of traffic, and they are read while the rules run, when memory peaks.
public struct RadioSegments: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
    private var links: [LinkKind] = []
    private var states: [RadioState] = []
    private var starts: [Nanoseconds] = []
    private var ends: [Nanoseconds] = []
    private var joules: [Double] = []

    public init() {}

    public init(_ segments: some Sequence<RadioSegment>) {
        for segment in segments { append(segment) }
    }

    public init(arrayLiteral segments: RadioSegment...) {
        self.init(segments)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts.count }

    /// The segment at `index`. O(1).
    public subscript(index: Int) -> RadioSegment {
        RadioSegment(link: links[index], state: states[index], start: starts[index], end: ends[index], joules: joules[index])
    }

    /// Amortised O(1).
    public mutating func append(_ segment: RadioSegment) {
        links.append(segment.link)
        states.append(segment.state)
        starts.append(segment.start)
        ends.append(segment.end)
        joules.append(segment.joules)
    }

    /// Appends `other`'s segments after these. O(other.count).
    public mutating func append(contentsOf other: RadioSegments) {
        links += other.links
        states += other.states
        starts += other.starts
        ends += other.ends
        joules += other.joules
    }

    /// Gives back all the room the columns grew beyond their count: the segments are kept
    /// through the rules, when memory peaks, and copying them is one pass per column.
    public mutating func releaseUnusedCapacity() {
        links.releaseAllUnusedCapacity()
        states.releaseAllUnusedCapacity()
        starts.releaseAllUnusedCapacity()
        ends.releaseAllUnusedCapacity()
        joules.releaseAllUnusedCapacity()
    }
}
