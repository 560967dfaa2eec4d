/// The flow states of a capture being read, in blocks of `blockSize` states.
///
/// Why blocks: one array grown by doubling holds up to twice the states it has, and copies
/// them all at each doubling; flow states are the largest structure of a capture's import
/// (416 bytes each): on the 1 GiB capture of short sessions the array was a quarter of the
/// import's heap at its peak, a third of it unused. Here growing adds one block, so at most one
/// block is unused, and `removeAll(handingBlocksTo:)` frees the states block by block while
/// they are turned into the flow table.
struct FlowStateStore: RandomAccessCollection {
    /// States per block: 1,024 (416 KiB).
    static let blockShift = 10
    static var blockSize: Int { 1 << blockShift }
    private static var slotMask: Int { blockSize - 1 }

    private var blocks: [[FlowState]] = []
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The state of flow `index`. O(1).
    subscript(index: Int) -> FlowState {
        _read { yield blocks[index &>> Self.blockShift][index & Self.slotMask] }
        _modify { yield &blocks[index &>> Self.blockShift][index & Self.slotMask] }
    }

    /// States reserved, used or not: at most one block more than `count`.
    var capacity: Int { blocks.reduce(0) { $0 + $1.capacity } }

    /// Appends `state` as flow `count`. O(1); allocates one block every `blockSize` states.
    mutating func append(_ state: FlowState) {
        if count & Self.slotMask == 0 {
            var block: [FlowState] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
        }
        blocks[count &>> Self.blockShift].append(state)
        count += 1
    }

    /// Exchanges the block that holds flow `index` with `block` and returns the flow's place in
    /// it. The flow tracker moves a block out to update one of its states in place while its
    /// other members change (a state cannot be borrowed from `self` across a mutating call),
    /// then calls this again to put the block back. O(1).
    mutating func exchangeBlock(holding index: Int, with block: inout [FlowState]) -> Int {
        swap(&block, &blocks[index &>> Self.blockShift])
        return index & Self.slotMask
    }

    /// Calls `body` with each block of states in flow order, then empties the store; each
    /// block is freed once `body` returns from it. O(count).
    mutating func removeAll(handingBlocksTo body: ([FlowState]) -> Void) {
        for place in blocks.indices {
            var block: [FlowState] = []
            swap(&block, &blocks[place])
            body(block)
        }
        blocks = []
        count = 0
    }
}
