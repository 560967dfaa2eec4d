/// Plain HTTP/1.x message heads seen on a capture's flows, one row per request or response,
/// stored column by column in the order they were seen.
///
/// A capture's importer keeps only the messages NET-UNCOMPRESSED can read: those whose head
/// says the body may be plain text sent uncompressed (`PlainTextHeads`), and the message after
/// each of those of the same kind (request or response) on its flow, which ends the events that
/// carried it. Responses have their paths already (`resolveResponsePaths()` applied as the
/// capture is read).
///
/// Only what the head's first captured segment holds is known: a field that came in a later
/// segment, or after the capture's snapshot length, is missing. Strings are ids of the
/// timeline's `strings` and untrusted text from the capture; `0` means absent.
///
/// The columns a message leaves at their default more often than not (a response has no
/// method or path, a request no status, few bodies are encoded) keep only the values that
/// differ (`SparseColumn`): a capture of chatty JSON exchanges holds its messages while the
/// rules run, when memory peaks.
public struct HTTPMessageTable: Sendable {
    /// One message as a value, for appending and reading.
    public struct Message: Sendable, Equatable {
        public var time: Nanoseconds = 0
        public var flow: UInt32 = 0
        public var isRequest = true
        public var method: StringID = 0
        public var path: StringID = 0
        public var status: UInt16 = 0
        public var host: StringID = 0
        public var contentType: StringID = 0
        public var contentEncoding: StringID = 0
        public var contentLength: Int64 = -1
        public var bodyBytes: Int64 = 0

        public init() {}
    }

    /// Time of the segment that carried the head.
    public private(set) var time: [Nanoseconds] = []
    /// Index of the message's flow in the `FlowTable`.
    public private(set) var flow: [UInt32] = []
    /// `true` for a request (sent by the side that sent it, usually the device), `false` for a response.
    public private(set) var isRequest: [Bool] = []
    /// Request method (`GET`, `POST`…); `0` for responses.
    public private(set) var method = SparseColumn<StringID>(defaultValue: 0)
    /// Request target as sent (path and query), cut to its first 1024 bytes. A response has
    /// the target of the request it answers once `resolveResponsePaths()` ran (a capture's
    /// importer gives it as it reads the response), else `0`.
    public private(set) var path = SparseColumn<StringID>(defaultValue: 0)
    /// Response status code; `0` for requests.
    public private(set) var status = SparseColumn<UInt16>(defaultValue: 0)
    /// `Host` header value.
    public private(set) var host: [StringID] = []
    /// `Content-Type` header value.
    public private(set) var contentType = SparseColumn<StringID>(defaultValue: 0)
    /// `Content-Encoding` header value (`gzip`, `br`…).
    public private(set) var contentEncoding = SparseColumn<StringID>(defaultValue: 0)
    /// `Content-Length` header value, or -1 when absent or not a number.
    public private(set) var contentLength = SparseColumn<Int64>(defaultValue: -1)
    /// Body bytes seen: payload after the head, in the same direction, until the next message
    /// head in that direction or the end of the flow (retransmissions not counted).
    public private(set) var bodyBytes: [Int64] = []

    public init() {}

    /// The number of messages. O(1).
    public var count: Int { time.count }

    /// Gives back the room the columns grew beyond their messages (`Array.releaseUnusedCapacity`).
    public mutating func releaseUnusedCapacity() {
        time.releaseUnusedCapacity()
        flow.releaseUnusedCapacity()
        isRequest.releaseUnusedCapacity()
        method.releaseUnusedCapacity()
        path.releaseUnusedCapacity()
        status.releaseUnusedCapacity()
        host.releaseUnusedCapacity()
        contentType.releaseUnusedCapacity()
        contentEncoding.releaseUnusedCapacity()
        contentLength.releaseUnusedCapacity()
        bodyBytes.releaseUnusedCapacity()
    }

    /// Appends a message and returns its index. Amortised O(1).
    @discardableResult
    public mutating func append(_ message: Message) -> Int {
        time.append(message.time)
        flow.append(message.flow)
        isRequest.append(message.isRequest)
        method.append(message.method)
        path.append(message.path)
        status.append(message.status)
        host.append(message.host)
        contentType.append(message.contentType)
        contentEncoding.append(message.contentEncoding)
        contentLength.append(message.contentLength)
        bodyBytes.append(message.bodyBytes)
        return time.count - 1
    }

    /// The message at `index` as a value. O(1).
    public subscript(index: Int) -> Message {
        var message = Message()
        message.time = time[index]
        message.flow = flow[index]
        message.isRequest = isRequest[index]
        message.method = method[index]
        message.path = path[index]
        message.status = status[index]
        message.host = host[index]
        message.contentType = contentType[index]
        message.contentEncoding = contentEncoding[index]
        message.contentLength = contentLength[index]
        message.bodyBytes = bodyBytes[index]
        return message
    }

    /// Gives each response the path of the request it answers: the n-th response of a flow
    /// answers its n-th request, in table order (HTTP/1.x answers in order). A response that
    /// comes before its request in the table keeps `0`. O(messages + flows).
    public mutating func resolveResponsePaths() {
        guard let highest = flow.max() else { return }
        let flows = Int(highest) + 1
        let requests = IndexGroups(count: count, groups: flows) { isRequest[$0] ? Int(flow[$0]) : nil }
        // How many of each flow's requests and answers the walk has passed.
        var asked = [Int32](repeating: 0, count: flows)
        var answered = [Int32](repeating: 0, count: flows)
        var resolved = SparseColumn<StringID>(defaultValue: 0)
        resolved.reserveCapacity(count)
        for index in 0..<count {
            let flow = Int(self.flow[index])
            if isRequest[index] {
                asked[flow] += 1
                resolved.append(path[index])
            } else {
                let answer = answered[flow]
                answered[flow] = answer + 1
                let ofFlow = requests.members(of: flow)
                resolved.append(answer < asked[flow] ? path[Int(ofFlow[ofFlow.startIndex + Int(answer)])] : 0)
            }
        }
        path = resolved
    }

    /// The messages at `indices`, in that order, in columns of their size. O(indices).
    public func selecting(_ indices: some Collection<Int>) -> HTTPMessageTable {
        var kept = HTTPMessageTable()
        kept.reserveCapacity(indices.count)
        for index in indices { kept.append(self[index]) }
        kept.releaseUnusedCapacity()
        return kept
    }

    /// Reserves room for `capacity` messages in the columns every message fills, and in the
    /// row sets of the sparse ones.
    public mutating func reserveCapacity(_ capacity: Int) {
        time.reserveCapacity(capacity)
        flow.reserveCapacity(capacity)
        isRequest.reserveCapacity(capacity)
        host.reserveCapacity(capacity)
        bodyBytes.reserveCapacity(capacity)
        method.reserveCapacity(capacity)
        path.reserveCapacity(capacity)
        status.reserveCapacity(capacity)
        contentType.reserveCapacity(capacity)
        contentEncoding.reserveCapacity(capacity)
        contentLength.reserveCapacity(capacity)
    }

    /// Adds body bytes seen after a message's head. O(1).
    public mutating func addBodyBytes(_ bytes: Int64, to index: Int) {
        bodyBytes[index] += bytes
    }

    /// Appends the messages of another table, adding `flowOffset` to their flow indexes,
    /// moving their times by `shift` and mapping their string ids through `strings`.
    /// O(messages).
    public mutating func append(
        contentsOf other: HTTPMessageTable, flowOffset: UInt32, shift: Nanoseconds, strings: [StringID]
    ) {
        for index in 0..<other.count {
            var message = other[index]
            message.time += shift
            message.flow += flowOffset
            message.method = strings[Int(message.method)]
            message.path = strings[Int(message.path)]
            message.host = strings[Int(message.host)]
            message.contentType = strings[Int(message.contentType)]
            message.contentEncoding = strings[Int(message.contentEncoding)]
            append(message)
        }
    }
}
