import DrainTrace

/// The coalesced `net` events of a capture while it is read, column by column: they close
/// out of time order (each flow's window closes when that flow's next packet comes, or at the
/// end), and their labels are only known at the end, so they wait here until `FlowTracker`
/// finishes. 29 bytes per event.
struct NetEventBuffer {
    private(set) var time: [Nanoseconds] = []
    private(set) var duration: [Nanoseconds] = []
    private(set) var bytes: [Int64] = []
    private(set) var flow: [UInt32] = []
    /// 0: the flow's side A sent the packets; 1: side B.
    private(set) var direction: [UInt8] = []

    var count: Int { time.count }

    mutating func append(time start: Nanoseconds, last: Nanoseconds, bytes total: Int64, flow index: UInt32, direction side: Int) {
        time.append(start)
        duration.append(last - start)
        bytes.append(total)
        flow.append(index)
        direction.append(UInt8(side))
    }

    /// Event indexes in time order, equal times in the order they closed. O(n log n).
    func timeOrder() -> [Int] {
        var order = Array(0..<count)
        var sorted = true
        for index in 1..<max(1, count) where time[index] < time[index - 1] {
            sorted = false
            break
        }
        if !sorted {
            order.sort { time[$0] != time[$1] ? time[$0] < time[$1] : $0 < $1 }
        }
        return order
    }
}
