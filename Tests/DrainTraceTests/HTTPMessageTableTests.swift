import DrainTrace
import Testing

@Suite struct HTTPMessageTableTests {
    /// A message of `flow` at `time` seconds; `path` is a string id, 0 for none.
    func message(_ flow: UInt32, _ time: Int64, request: Bool, path: StringID = 0) -> HTTPMessageTable.Message {
        var message = HTTPMessageTable.Message()
        message.time = time * 1_000_000_000
        message.flow = flow
        message.isRequest = request
        message.path = path
        message.status = request ? 0 : 200
        return message
    }

    /// Two flows whose messages interleave, one with two requests in a row (pipelined), and a
    /// response that comes before any request of its flow: the n-th response of a flow takes
    /// the path of its n-th request, the early one none, and a response past the requests
    /// seen so far none.
    @Test func eachResponseTakesThePathOfTheRequestItAnswersInOrder() {
        var table = HTTPMessageTable()
        let messages = [
            message(2, 0, request: false),
            message(0, 1, request: true, path: 10),
            message(1, 1, request: true, path: 20),
            message(0, 2, request: true, path: 11),
            message(1, 2, request: false),
            message(0, 3, request: false),
            message(0, 4, request: false),
            message(0, 5, request: false),
            message(2, 6, request: true, path: 30),
        ]
        for message in messages { table.append(message) }
        table.resolveResponsePaths()
        #expect(Array(table.path) == [0, 10, 20, 11, 20, 10, 11, 0, 30])
        #expect(Array(table.status) == messages.map(\.status))
        #expect(table.time == messages.map(\.time))

        var empty = HTTPMessageTable()
        empty.resolveResponsePaths()
        #expect(empty.count == 0)
    }

    @Test func selectingKeepsTheChosenMessagesInOrderInColumnsOfTheirSize() {
        var table = HTTPMessageTable()
        let messages = (0..<1_000).map { message(UInt32($0 % 3), Int64($0), request: $0.isMultiple(of: 2), path: StringID($0 % 7)) }
        for message in messages { table.append(message) }
        let chosen = (0..<1_000).filter { $0 % 4 == 1 || $0 == 8 }
        let kept = table.selecting(chosen)
        #expect((0..<kept.count).map { kept[$0] } == chosen.map { messages[$0] })
        #expect(kept.time.capacity < kept.count + kept.count / 4)
        #expect(table.selecting([]).count == 0)
    }
}
