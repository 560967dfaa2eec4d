import DrainTrace
import Testing

@testable import DrainImport

/// The importer's flow states kept in blocks: every state reads back at its flow number, the
/// block exchange the tracker updates through reaches the same state, the states are handed
/// over in flow order, and the room reserved never exceeds one unused block.
struct FlowStateStoreTests {
    private func state(_ number: Int) -> FlowState {
        let key = FlowKey(
            addressA: IPAddress(v4: 0x0A00_0000 | UInt32(number)), addressB: IPAddress(v4: 0x5DB8_D822), portA: UInt16(number % 60_000),
            portB: 443, transport: 6)
        return FlowState(key: key, generation: UInt32(number), link: .wifi, time: Nanoseconds(number) * 1_000, fromA: true)
    }

    /// Three blocks and a part: flow numbers on both sides of each block boundary.
    private var flowCount: Int { 3 * FlowStateStore.blockSize + 5 }

    private func filledStore() -> FlowStateStore {
        var store = FlowStateStore()
        for number in 0..<flowCount { store.append(state(number)) }
        return store
    }

    @Test func everyStateReadsBackAtItsFlowNumber() {
        let store = filledStore()
        #expect(store.count == flowCount)
        #expect(store.map(\.generation) == (0..<flowCount).map { UInt32($0) })
        let size = FlowStateStore.blockSize
        for number in [0, size - 1, size, 2 * size - 1, 2 * size, flowCount - 1] {
            #expect(store[number].firstTime == Nanoseconds(number) * 1_000)
        }
    }

    @Test func anUnusedBlockIsTheMostThatIsReserved() {
        var store = FlowStateStore()
        for number in 0..<flowCount {
            store.append(state(number))
            let blocks = (store.count + FlowStateStore.blockSize - 1) / FlowStateStore.blockSize
            #expect(store.capacity >= store.count)
            // A block's array may round its room up to the allocator's size class: 1 % here.
            #expect(store.capacity <= blocks * (FlowStateStore.blockSize + FlowStateStore.blockSize / 100))
        }
    }

    @Test func aStateChangedThroughItsBlockOrInPlaceStaysChanged() {
        var store = filledStore()
        let number = 2 * FlowStateStore.blockSize + 3
        var block: [FlowState] = []
        let slot = store.exchangeBlock(holding: number, with: &block)
        #expect(slot == 3)
        #expect(block[slot].generation == UInt32(number))
        block[slot].retransmits = 7
        #expect(store.count == flowCount)
        let back = store.exchangeBlock(holding: number, with: &block)
        #expect(back == slot)
        #expect(block.isEmpty)
        #expect(store[number].retransmits == 7)

        store[FlowStateStore.blockSize].dataSegments = 9
        #expect(store[FlowStateStore.blockSize].dataSegments == 9)
        #expect(store[FlowStateStore.blockSize - 1].dataSegments == 0)
    }

    @Test func statesAreHandedOverInFlowOrderAndTheStoreEmpties() {
        var store = filledStore()
        var handed: [UInt32] = []
        var blockSizes: [Int] = []
        store.removeAll { block in
            handed += block.map(\.generation)
            blockSizes.append(block.count)
        }
        #expect(handed == (0..<flowCount).map { UInt32($0) })
        let size = FlowStateStore.blockSize
        #expect(blockSizes == [size, size, size, 5])
        #expect(store.isEmpty)
        #expect(store.capacity == 0)
    }
}
