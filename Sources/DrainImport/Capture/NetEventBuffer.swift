import DrainTrace

/// The coalesced `net` events of a capture while it is read, waiting for their labels (known
/// only at the end) until `FlowTracker` writes them to the timeline.
///
/// A row is appended when its window opens, at its first packet, so rows come in time order
/// for a capture in time order; the window's last packet time and bytes are filled in when it
/// closes. The newest rows are plain columns (29 bytes a row). Older ones are sealed in chunks
/// of `chunkRows`, each row as variable-length integers of its time's step from the row
/// before, its span, its bytes, and its flow's step from the row before with its direction:
/// a capture's rows are the largest part of an import's memory. A window still open when its
/// row is sealed (a flow's last window each way closes only at the end of the capture) is
/// filled in by a patch kept beside the chunks, 32 bytes each.
///
/// Chunks are packed into slabs of `slabBytes`, blocks large enough that malloc maps each on
/// its own (`ProcessMemory.largeBlockBytes` in DrainPipeline): freed one by one as the rows
/// are read back into the timeline's columns, they leave the process at once. Chunks of their
/// own size came from the heap, where the space they left stayed resident beside the columns.
struct NetEventBuffer {
    /// Rows per sealed chunk; the plain columns hold between one and two chunks' worth.
    static let chunkRows = 4096
    /// Bytes reserved per slab of sealed chunks: 1 MiB and a chunk's worst case, so that a slab
    /// holds at least 1 MiB of chunks before the next one starts.
    static let slabBytes = (1 << 20) + chunkRows * maximumRowBytes
    /// Four LEB128 numbers of at most 64 bits each.
    private static let maximumRowBytes = 4 * 10

    /// The rows from `sealedCount` on.
    private var time: [Nanoseconds] = []
    private var last: [Nanoseconds] = []
    private var bytes: [Int64] = []
    private var flow: [UInt32] = []
    /// 0: the flow's side A sent the packets; 1: side B.
    private var direction: [UInt8] = []
    /// The sealed rows, `chunkRows` after `chunkRows` in order, in slabs of `slabBytes`.
    private var sealed: [[UInt8]] = []
    private var sealedCount = 0
    /// Closes of rows already sealed, in the order they came.
    private var patches: [Patch] = []
    /// Where a chunk is encoded before it is appended to its slab: its worst case, 160 KiB.
    private var scratch: [UInt8] = []

    private struct Patch {
        var row: Int
        var start: Nanoseconds
        var last: Nanoseconds
        var bytes: Int64
    }

    var count: Int { sealedCount + time.count }

    /// Adds the row of a window opening at `start` and returns its index. Amortised O(1); no
    /// allocation but one chunk's encoding every `chunkRows` rows.
    mutating func open(at start: Nanoseconds, flow index: UInt32, direction side: Int) -> Int {
        precondition(side == 0 || side == 1, "a direction is side A's (0) or side B's (1)")
        if time.count == 2 * Self.chunkRows {
            sealOldestChunk()
        } else if time.capacity == 0 {
            let rows = 2 * Self.chunkRows
            time.reserveCapacity(rows)
            last.reserveCapacity(rows)
            bytes.reserveCapacity(rows)
            flow.reserveCapacity(rows)
            direction.reserveCapacity(rows)
        }
        time.append(start)
        last.append(start)
        bytes.append(0)
        flow.append(index)
        direction.append(UInt8(side))
        return count - 1
    }

    /// Fills in a window when it closes: its first and last packet times and its bytes. O(1).
    mutating func close(_ row: Int, start: Nanoseconds, last end: Nanoseconds, bytes total: Int64) {
        let place = row - sealedCount
        guard place >= 0 else {
            patches.append(Patch(row: row, start: start, last: end, bytes: total))
            return
        }
        time[place] = start
        last[place] = end
        bytes[place] = total
    }

    /// The columns, leaving the buffer empty: each window's start moved by `shift`, its span
    /// from start to last packet, bytes, flow and direction; rows in time order, equal times in
    /// the order they opened (a capture out of time order is sorted). Each column is in storage
    /// of its own size, and each sealed chunk is freed once read: the timeline takes the
    /// columns over and keeps them through the rules, when memory peaks. O(n), or O(n log n) to
    /// sort.
    mutating func takeColumns(
        shift: Nanoseconds
    ) -> (time: [Nanoseconds], duration: [Nanoseconds], bytes: [Int64], flow: [UInt32], direction: [UInt8]) {
        defer { self = NetEventBuffer() }
        let total = count
        patches.sort { $0.row < $1.row }
        var slabs: [[UInt8]] = []
        swap(&slabs, &sealed)
        let (patches, sealedCount) = (patches, sealedCount)
        let plain = (time: time, last: last, bytes: bytes, flow: flow, direction: direction)
        // The columns are filled in place, so that their pages come in as the slabs, each freed
        // once read, go out.
        var spans: [Nanoseconds] = [], sizes: [Int64] = [], flows: [UInt32] = [], sides: [UInt8] = []
        let times = [Nanoseconds](unsafeUninitializedCapacity: total) { time, timeCount in
            spans = [Nanoseconds](unsafeUninitializedCapacity: total) { span, spanCount in
                sizes = [Int64](unsafeUninitializedCapacity: total) { size, sizeCount in
                    flows = [UInt32](unsafeUninitializedCapacity: total) { flow, flowCount in
                        sides = [UInt8](unsafeUninitializedCapacity: total) { side, sideCount in
                            var columns = Columns(time: time, span: span, bytes: size, flow: flow, direction: side, shift: shift)
                            var patch = 0
                            for slab in slabs.indices {
                                var encoded: [UInt8] = []
                                swap(&encoded, &slabs[slab])
                                encoded.withUnsafeBufferPointer { Self.decode($0, into: &columns, patches: patches, patch: &patch) }
                            }
                            precondition(columns.row == sealedCount, "every sealed row read back")
                            for (place, row) in (sealedCount..<total).enumerated() {
                                let start = plain.time[place]
                                (time[row], span[row], size[row]) = (start &+ shift, plain.last[place] &- start, plain.bytes[place])
                                (flow[row], side[row]) = (plain.flow[place], plain.direction[place])
                            }
                            sideCount = total
                        }
                        flowCount = total
                    }
                    sizeCount = total
                }
                spanCount = total
            }
            timeCount = total
        }
        // Sorting rows already in order by (time, row) would leave them as they are.
        guard !Self.isInTimeOrder(times) else { return (times, spans, sizes, flows, sides) }
        var order = Array(0..<total)
        order.sort { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        return (order.map { times[$0] }, order.map { spans[$0] }, order.map { sizes[$0] }, order.map { flows[$0] }, order.map { sides[$0] })
    }

    /// Where `decode` writes the rows it reads: the columns being filled, the shift of their
    /// times, and the next row.
    private struct Columns {
        let time: UnsafeMutableBufferPointer<Nanoseconds>
        let span: UnsafeMutableBufferPointer<Nanoseconds>
        let bytes: UnsafeMutableBufferPointer<Int64>
        let flow: UnsafeMutableBufferPointer<UInt32>
        let direction: UnsafeMutableBufferPointer<UInt8>
        let shift: Nanoseconds
        var row = 0
    }

    /// Reads one slab's chunks into `columns` from `columns.row` on, with the patches of those
    /// rows (`patches` by row, the next unread at `patch`).
    private static func decode(_ encoded: UnsafeBufferPointer<UInt8>, into columns: inout Columns, patches: [Patch], patch: inout Int) {
        var position = 0
        @inline(__always) func signed() -> Int64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = encoded[position]
                position += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }
        while position < encoded.count {
            var previousTime: Nanoseconds = 0
            var previousFlow: Int64 = 0
            for _ in 0..<chunkRows {
                let row = columns.row
                var start = previousTime &+ signed()
                previousTime = start
                var span = signed()
                var carried = signed()
                let flowStepAndSide = signed()
                previousFlow &+= flowStepAndSide >> 1
                if patch < patches.count, patches[patch].row == row {
                    (start, span, carried) = (patches[patch].start, patches[patch].last &- patches[patch].start, patches[patch].bytes)
                    patch += 1
                }
                columns.time[row] = start &+ columns.shift
                columns.span[row] = span
                columns.bytes[row] = carried
                columns.flow[row] = UInt32(truncatingIfNeeded: previousFlow)
                columns.direction[row] = UInt8(flowStepAndSide & 1)
                columns.row = row + 1
            }
        }
    }

    private static func isInTimeOrder(_ time: [Nanoseconds]) -> Bool {
        time.indices.dropFirst().allSatisfy { time[$0 - 1] <= time[$0] }
    }

    /// Encodes the oldest `chunkRows` plain rows into the last slab (a new one when they do
    /// not fit) and drops them from the columns.
    private mutating func sealOldestChunk() {
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: Self.chunkRows * Self.maximumRowBytes) }
        let used = scratch.withUnsafeMutableBufferPointer { out in
            var used = 0
            @inline(__always) func put(_ value: Int64) {
                var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
                while rest >= 0x80 {
                    out[used] = UInt8(truncatingIfNeeded: rest) | 0x80
                    used += 1
                    rest >>= 7
                }
                out[used] = UInt8(rest)
                used += 1
            }
            var previousTime: Nanoseconds = 0
            var previousFlow: Int64 = 0
            for place in 0..<Self.chunkRows {
                put(time[place] &- previousTime)
                previousTime = time[place]
                put(last[place] &- time[place])
                put(bytes[place])
                // The step to this row's flow, doubled, with the direction in the low bit.
                put((Int64(flow[place]) &- previousFlow) << 1 | Int64(direction[place]))
                previousFlow = Int64(flow[place])
            }
            return used
        }
        if let slab = sealed.indices.last, sealed[slab].capacity - sealed[slab].count >= used {
            sealed[slab].append(contentsOf: scratch[0..<used])
        } else {
            var slab: [UInt8] = []
            slab.reserveCapacity(Self.slabBytes)
            slab.append(contentsOf: scratch[0..<used])
            sealed.append(slab)
        }
        sealedCount += Self.chunkRows
        time.removeFirst(Self.chunkRows)
        last.removeFirst(Self.chunkRows)
        bytes.removeFirst(Self.chunkRows)
        flow.removeFirst(Self.chunkRows)
        direction.removeFirst(Self.chunkRows)
    }
}
