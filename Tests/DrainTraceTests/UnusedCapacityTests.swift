import Testing

@testable import DrainTrace

/// Columns built by appending give back the room they grew beyond their count, and read the
/// same afterwards.
@Suite struct UnusedCapacityTests {
    @Test func anArrayGrownByAppendingShrinksToItsCountAndKeepsItsElements() {
        var grown: [Int64] = []
        for value in 0..<70_000 { grown.append(Int64(value) * 3) }
        let before = grown
        #expect(grown.capacity - grown.count > grown.count / 4 + 64)
        grown.releaseUnusedCapacity()
        #expect(grown == before)
        #expect(grown.capacity < grown.count + grown.count / 4)
        // An array with little room to give back is left as it is.
        var snug = [Int64](repeating: 1, count: 1_000)
        snug.reserveCapacity(1_100)
        let capacity = snug.capacity
        snug.releaseUnusedCapacity()
        #expect(snug.capacity == capacity)
    }

    @Test func anArrayWithAnyRoomToSpareIsFittedToItsCountWhenAllIsAsked() {
        var snug = [Int64](repeating: 1, count: 1_000)
        snug.reserveCapacity(1_100)
        let before = snug
        snug.releaseAllUnusedCapacity()
        #expect(snug == before)
        // Array storage rounds up to the allocator's size classes: 1,000 eight-byte values fit
        // within a few slots of their count, far below the 1,100 reserved.
        #expect(snug.capacity < 1_010)
    }

    @Test func sparseColumnsAndHTTPMessagesReadTheSameAfterGivingBackRoom() {
        var column = SparseColumn<Int64>(defaultValue: 0)
        for row in 0..<40_000 { column.append(row % 3 == 0 ? 0 : Int64(row)) }
        let values = Array(column)
        column.releaseUnusedCapacity()
        #expect(Array(column) == values)
        #expect(column.values.capacity < column.values.count + column.values.count / 4)

        var table = HTTPMessageTable()
        for index in 0..<5_000 {
            var message = HTTPMessageTable.Message()
            message.time = Int64(index) * 1_000
            message.flow = UInt32(index % 17)
            message.isRequest = index % 2 == 0
            message.status = index % 2 == 0 ? 0 : 200
            message.contentLength = Int64(index)
            table.append(message)
        }
        let copy = table
        table.releaseUnusedCapacity()
        #expect(table.count == copy.count)
        #expect(table.time == copy.time && table.flow == copy.flow && table.isRequest == copy.isRequest)
        #expect(table.status == copy.status && table.contentLength == copy.contentLength && table.bodyBytes == copy.bodyBytes)
        #expect(table.time.capacity < table.count + table.count / 4)
    }
}
