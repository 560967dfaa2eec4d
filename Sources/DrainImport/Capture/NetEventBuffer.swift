import DrainTrace

/// The coalesced `net` events of a capture while it is read, column by column, waiting for
/// their labels (known only at the end) until `FlowTracker` writes them to the timeline.
///
/// A row is appended when its window opens, at its first packet, so rows are in time order
/// for a capture in time order and need no sort; the window's last packet time and bytes are
/// filled in when it closes. 29 bytes per event.
struct NetEventBuffer {
    private(set) var time: [Nanoseconds] = []
    private(set) var last: [Nanoseconds] = []
    private(set) var bytes: [Int64] = []
    private(set) var flow: [UInt32] = []
    /// 0: the flow's side A sent the packets; 1: side B.
    private(set) var direction: [UInt8] = []
    /// Whether rows are in time order (false after a packet earlier than those before it).
    private(set) var isSorted = true

    var count: Int { time.count }

    /// Adds the row of a window opening at `start` and returns its index. Amortised O(1).
    mutating func open(at start: Nanoseconds, flow index: UInt32, direction side: Int) -> Int {
        if let previous = time.last, start < previous { isSorted = false }
        time.append(start)
        last.append(start)
        bytes.append(0)
        flow.append(index)
        direction.append(UInt8(side))
        return time.count - 1
    }

    /// Fills in a window when it closes: its first and last packet times and its bytes.
    mutating func close(_ row: Int, start: Nanoseconds, last end: Nanoseconds, bytes total: Int64) {
        if start < time[row] { isSorted = false }
        time[row] = start
        last[row] = end
        bytes[row] = total
    }

    /// The columns, leaving the buffer empty; rows in time order (`timeOrder()`) when they
    /// were not. Each column is in storage of its own size: the timeline takes them over and
    /// keeps them through the rules, when memory peaks. O(n), or O(n log n) to sort.
    mutating func takeColumns() -> (time: [Nanoseconds], last: [Nanoseconds], bytes: [Int64], flow: [UInt32], direction: [UInt8]) {
        defer { self = NetEventBuffer() }
        if isSorted {
            func fit<Element>(_ column: inout [Element]) -> [Element] {
                column.releaseAllUnusedCapacity()
                defer { column = [] }
                return column
            }
            return (fit(&time), fit(&last), fit(&bytes), fit(&flow), fit(&direction))
        }
        let order = timeOrder()
        return (order.map { time[$0] }, order.map { last[$0] }, order.map { bytes[$0] }, order.map { flow[$0] }, order.map { direction[$0] })
    }

    /// Row indexes in time order, equal times in the order they opened, for a buffer that is
    /// not sorted (a capture out of time order; a sorted one is read in row order). O(n log n).
    func timeOrder() -> [Int] {
        var order = Array(0..<count)
        order.sort { time[$0] != time[$1] ? time[$0] < time[$1] : $0 < $1 }
        return order
    }
}
