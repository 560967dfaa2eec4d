import DrainTrace

/// A run's radio segments, kept by column: about 18 bytes a segment where an array of
/// `RadioSegment`s takes 32 (its 26 bytes padded to its 8-byte alignment). A run has about
/// six segments per burst of traffic, and they are read while the rules run, when memory peaks.
///
/// A segment's end is not kept when it is where the next segment starts, which is so for all
/// but a radio's last segment when its state machine leaves no time uncovered (the built-in
/// ones record idle time as segments): the difference to the next start is a sparse column.
public struct RadioSegments: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
    private var links: [LinkKind] = []
    private var states: [RadioState] = []
    private var starts: [Nanoseconds] = []
    private var joules: [Double] = []
    /// `end − next start` of every segment but the last (wrapping arithmetic: exact both ways).
    private var overhangs = SparseColumn<Nanoseconds>(defaultValue: 0)
    private var lastEnd: Nanoseconds = 0

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
        let end = index == starts.count - 1 ? lastEnd : starts[index + 1] &+ overhangs[index]
        return RadioSegment(link: links[index], state: states[index], start: starts[index], end: end, joules: joules[index])
    }

    /// Amortised O(1).
    public mutating func append(_ segment: RadioSegment) {
        if !starts.isEmpty { overhangs.append(lastEnd &- segment.start) }
        links.append(segment.link)
        states.append(segment.state)
        starts.append(segment.start)
        joules.append(segment.joules)
        lastEnd = segment.end
    }

    /// Appends `other`'s segments after these. O(other.count).
    public mutating func append(contentsOf other: RadioSegments) {
        for segment in other { append(segment) }
    }

    /// Gives back all the room the columns grew beyond their count: the segments are kept
    /// through the rules, when memory peaks, and copying them is one pass per column.
    public mutating func releaseUnusedCapacity() {
        links.releaseAllUnusedCapacity()
        states.releaseAllUnusedCapacity()
        starts.releaseAllUnusedCapacity()
        joules.releaseAllUnusedCapacity()
        overhangs.releaseUnusedCapacity()
    }
}
