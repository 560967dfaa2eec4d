import DrainTrace

/// The request paths of each flow waiting for their response, so that a response is given the
/// path of the request it answers as it is read: the `n`-th response of a flow answers its
/// `n`-th request, if that request came before it (`HTTPMessageTable.resolveResponsePaths()`,
/// read in flight). The requests themselves need not be kept.
///
/// One pool of queue entries for all flows, each flow's queue a list through it; an answered
/// entry is reused. Memory is bounded by the requests not yet answered, not by the requests.
struct RequestPathQueues {
    /// A flow's queue and how many more requests than responses it has seen (negative when
    /// responses came first: requests that come later answer nothing already read).
    struct Queue {
        var head: Int32 = -1
        var tail: Int32 = -1
        var backlog: Int32 = 0
    }

    private var paths: [StringID] = []
    private var next: [Int32] = []
    /// The first reusable entry, or -1.
    private var free: Int32 = -1

    /// A request with `path` was read on the flow of `queue`. O(1) amortised.
    mutating func asked(_ path: StringID, queue: inout Queue) {
        defer { queue.backlog += 1 }
        // A request after more responses than requests is answered by none of them.
        guard queue.backlog >= 0 else { return }
        let entry: Int32
        if free >= 0 {
            entry = free
            free = next[Int(entry)]
            paths[Int(entry)] = path
            next[Int(entry)] = -1
        } else {
            entry = Int32(paths.count)
            paths.append(path)
            next.append(-1)
        }
        if queue.tail >= 0 { next[Int(queue.tail)] = entry } else { queue.head = entry }
        queue.tail = entry
    }

    /// A response was read on the flow of `queue`: the path of the request it answers, or 0.
    /// O(1).
    mutating func answered(queue: inout Queue) -> StringID {
        defer { queue.backlog -= 1 }
        guard queue.backlog > 0 else { return 0 }
        let entry = queue.head
        let path = paths[Int(entry)]
        queue.head = next[Int(entry)]
        if queue.head < 0 { queue.tail = -1 }
        next[Int(entry)] = free
        free = entry
        return path
    }
}
