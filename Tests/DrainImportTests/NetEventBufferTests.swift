import DrainTrace
import Testing

@testable import DrainImport

/// The coalesced events of a capture read back as they were written, whether their rows were
/// still plain or already sealed in chunks, and whether their windows closed before or after
/// their rows were sealed; rows out of time order come back sorted, equal times in the order
/// they opened.
struct NetEventBufferTests {
    /// The buffer's rows kept plainly, as the importer kept them before rows were sealed.
    private struct PlainRows {
        var time: [Nanoseconds] = []
        var last: [Nanoseconds] = []
        var bytes: [Int64] = []
        var flow: [UInt32] = []
        var direction: [UInt8] = []

        func inTimeOrder() -> (time: [Nanoseconds], last: [Nanoseconds], bytes: [Int64], flow: [UInt32], direction: [UInt8]) {
            let order = time.indices.sorted { time[$0] != time[$1] ? time[$0] < time[$1] : $0 < $1 }
            return (order.map { time[$0] }, order.map { last[$0] }, order.map { bytes[$0] }, order.map { flow[$0] }, order.map { direction[$0] })
        }
    }

    /// Windows of 300 flows each way opened and closed at random over `rows` rows: most close
    /// at once, one in 20 when its flow next sends that way (about 600 rows later). One window
    /// in 100 is of a flow of its own that closes 5,000 to 15,000 rows later or at the end,
    /// after its row was sealed. With `outOfOrder`, one window in 50 opens before the row
    /// before it, and one close in 40 moves its window's start earlier.
    private func fill(rows: Int, outOfOrder: Bool, seed: UInt64) -> (buffer: NetEventBuffer, plain: PlainRows) {
        var random = SplitMix64(seed: seed)
        var buffer = NetEventBuffer()
        var plain = PlainRows()
        // The open row of each flow and direction, and when it opened.
        var open: [Int: Int] = [:]
        var clock: Nanoseconds = 1_733_000_000_000_000_000
        func close(_ row: Int) {
            var start = plain.time[row]
            if outOfOrder, Int.random(in: 0..<40, using: &random) == 0 { start -= Nanoseconds.random(in: 1...5_000_000_000, using: &random) }
            let end = plain.time[row] + Nanoseconds.random(in: 0...3_000_000_000, using: &random)
            let carried = Int64.random(in: 0...(Int64.random(in: 0..<10, using: &random) == 0 ? 1 << 42 : 90_000), using: &random)
            buffer.close(row, start: start, last: end, bytes: carried)
            (plain.time[row], plain.last[row], plain.bytes[row]) = (start, end, carried)
        }
        // Rows of the flows of their own, by the row count at which they close.
        var closingLater: [Int: [Int]] = [:]
        for _ in 0..<rows {
            for row in closingLater.removeValue(forKey: plain.time.count) ?? [] { close(row) }
            clock += Nanoseconds.random(in: 0...2_000_000_000, using: &random)
            var start = clock
            if outOfOrder, Int.random(in: 0..<50, using: &random) == 0 { start -= Nanoseconds.random(in: 1...60_000_000_000, using: &random) }
            let side = Int.random(in: 0...1, using: &random)
            if Int.random(in: 0..<100, using: &random) == 0 {
                let row = buffer.open(at: start, flow: UInt32(1_000 + plain.time.count), direction: side)
                #expect(row == plain.time.count)
                plain.time.append(start)
                plain.last.append(start)
                plain.bytes.append(0)
                plain.flow.append(UInt32(1_000 + row))
                plain.direction.append(UInt8(side))
                closingLater[row + Int.random(in: 5_000...15_000, using: &random), default: []].append(row)
                continue
            }
            let flow = UInt32.random(in: 0..<300, using: &random)
            let key = Int(flow) * 2 + side
            if let row = open[key] { close(row) }
            let row = buffer.open(at: start, flow: flow, direction: side)
            #expect(row == plain.time.count)
            plain.time.append(start)
            plain.last.append(start)
            plain.bytes.append(0)
            plain.flow.append(flow)
            plain.direction.append(UInt8(side))
            // A window in 20 stays open until its flow's next packet that way or the end.
            if Int.random(in: 0..<20, using: &random) != 0 {
                open[key] = nil
                close(row)
            } else {
                open[key] = row
            }
        }
        for row in open.values.sorted() + closingLater.values.joined().sorted() { close(row) }
        return (buffer, plain)
    }

    @Test(arguments: [false, true])
    func rowsReadBackAsWrittenAcrossSealedChunks(outOfOrder: Bool) {
        // Five chunks and a part: rows on both sides of every chunk boundary, and windows of
        // sealed rows closed long after (a flow is chosen again after about 600 rows).
        let rows = 5 * NetEventBuffer.chunkRows + 777
        var (buffer, plain) = fill(rows: rows, outOfOrder: outOfOrder, seed: outOfOrder ? 7 : 3)
        #expect(buffer.count == rows)
        // Times move by the shift; each window's last packet time becomes its span.
        let shift: Nanoseconds = 5_000_000_000
        let taken = buffer.takeColumns(shift: shift)
        let expected = plain.inTimeOrder()
        #expect(taken.time == expected.time.map { $0 + shift })
        #expect(taken.duration == zip(expected.last, expected.time).map { $0 - $1 })
        #expect(taken.bytes == expected.bytes)
        #expect(taken.flow == expected.flow)
        #expect(taken.direction == expected.direction)
        #expect(taken.time.capacity == rows)
        #expect(buffer.count == 0)
        if !outOfOrder { #expect(plain.time == expected.time) }
    }

    @Test func aBufferOfFewerRowsThanAChunkIsKeptPlain() {
        var (buffer, plain) = fill(rows: 100, outOfOrder: true, seed: 11)
        let taken = buffer.takeColumns(shift: -7)
        let expected = plain.inTimeOrder()
        #expect(taken.time == expected.time.map { $0 - 7 } && taken.bytes == expected.bytes)
        #expect(taken.duration == zip(expected.last, expected.time).map { $0 - $1 })
        #expect(taken.flow == expected.flow && taken.direction == expected.direction)
    }
}
