import DrainTrace

/// A run's radio segments, kept by column: about 18 bytes a segment where an array of
/// `RadioSegment`s takes 32 (its 26 bytes padded to its 8-byte alignment). A run has about
/// six segments per burst of traffic, and they are read while the rules run, when memory peaks.
///
/// A segment's end is not kept when it is where the next segment starts, which is so for all
/// but a radio's last segment when its state machine leaves no time uncovered (the built-in
/// ones record idle time as segments): the difference to the next start is a sparse column.
///
/// The columns are cut in blocks of `blockLength` segments, each block but the first allocated
/// at its full length: while a run is priced its segments grow without the spare room doubling
/// leaves, and nothing is copied to give that room back at the end of pricing (where the grown
/// columns and their copies had held up to twice the segments' size); at most one block is
/// partly empty.
public struct RadioSegments: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
    /// Segments per block: 32,768, about 590 KB of columns.
    static let blockShift = 15
    static var blockLength: Int { 1 << blockShift }

    private var blocks: [Block] = []
    private var segmentCount = 0
    private var lastEnd: Nanoseconds = 0

    /// Up to `blockLength` consecutive segments, by column.
    private struct Block: Sendable, Equatable {
        var links: [LinkKind] = []
        var states: [RadioState] = []
        var starts: [Nanoseconds] = []
        var joules: [Double] = []
        /// `end − next start` of each segment of the block that has a next one, in this block
        /// or the next (wrapping arithmetic: exact both ways).
        var overhangs = SparseColumn<Nanoseconds>(defaultValue: 0)

        init(reserving capacity: Int) {
            links.reserveCapacity(capacity)
            states.reserveCapacity(capacity)
            starts.reserveCapacity(capacity)
            joules.reserveCapacity(capacity)
            overhangs.reserveCapacity(capacity)
        }
    }

    public init() {}

    public init(_ segments: some Sequence<RadioSegment>) {
        for segment in segments { append(segment) }
    }

    public init(arrayLiteral segments: RadioSegment...) {
        self.init(segments)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { segmentCount }

    /// The segment at `index`. O(1).
    public subscript(index: Int) -> RadioSegment {
        let block = index >> Self.blockShift, offset = index & (Self.blockLength - 1)
        let end: Nanoseconds
        if index == segmentCount - 1 {
            end = lastEnd
        } else {
            let next = index + 1
            end = blocks[next >> Self.blockShift].starts[next & (Self.blockLength - 1)] &+ blocks[block].overhangs[offset]
        }
        return RadioSegment(
            link: blocks[block].links[offset], state: blocks[block].states[offset], start: blocks[block].starts[offset],
            end: end, joules: blocks[block].joules[offset])
    }

    /// Amortised O(1); a new block's columns are allocated once, at their full length (the
    /// first block's grow, so that a short run keeps little).
    public mutating func append(_ segment: RadioSegment) {
        if segmentCount > 0 { blocks[(segmentCount - 1) >> Self.blockShift].overhangs.append(lastEnd &- segment.start) }
        if segmentCount & (Self.blockLength - 1) == 0 { blocks.append(Block(reserving: blocks.isEmpty ? 0 : Self.blockLength)) }
        let last = blocks.count - 1
        blocks[last].links.append(segment.link)
        blocks[last].states.append(segment.state)
        blocks[last].starts.append(segment.start)
        blocks[last].joules.append(segment.joules)
        segmentCount += 1
        lastEnd = segment.end
    }

    /// Appends `other`'s segments after these. O(other.count).
    public mutating func append(contentsOf other: RadioSegments) {
        for segment in other { append(segment) }
    }

    /// Gives back the room the columns have beyond their count: the segments are kept through
    /// the rules, when memory peaks. Only a block that is not full (the last, or a first block
    /// grown by doubling) is copied, one column at a time.
    public mutating func releaseUnusedCapacity() {
        for index in blocks.indices {
            blocks[index].links.releaseAllUnusedCapacity()
            blocks[index].states.releaseAllUnusedCapacity()
            blocks[index].starts.releaseAllUnusedCapacity()
            blocks[index].joules.releaseAllUnusedCapacity()
            blocks[index].overhangs.releaseUnusedCapacity()
        }
    }
}
