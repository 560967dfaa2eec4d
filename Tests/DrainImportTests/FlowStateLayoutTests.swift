import Testing

@testable import DrainImport

/// A capture of many flows holds one `FlowState` per flow until it is written out, so padding
/// between the state's fields costs memory on every flow: the fields are declared by alignment
/// to leave none but what their own types end with.
struct FlowStateLayoutTests {
    /// The size of a field's own type (an `Any` is not opened implicitly for an unconstrained
    /// generic parameter, so open it here).
    private func size(of value: Any) -> Int {
        func size<Field>(_: Field) -> Int { MemoryLayout<Field>.size }
        return _openExistential(value, do: size)
    }

    @Test func aFlowStateHoldsItsFieldsWithoutPaddingBetweenThem() {
        let key = FlowKey(addressA: IPAddress(v4: 1), addressB: IPAddress(v4: 2), portA: 1, portB: 2, transport: 6)
        let state = FlowState(key: key, generation: 1, link: .wifi, time: 0, fromA: true)
        let fields = Mirror(reflecting: state).children.map { size(of: $0.value) }
        let packed = fields.reduce(0, +)
        // The only gaps: after the 37-byte key (3 bytes) and after each 25-byte `PayloadRun`
        // (7 + 7), each followed by an 8-byte field. The stride rounds the end up to the 16-byte
        // alignment of the SIMD2<Int64> fields.
        #expect(MemoryLayout<FlowState>.alignment == 16)
        #expect(MemoryLayout<FlowState>.size - packed == 17)
        #expect(MemoryLayout<FlowState>.stride == 416)
    }
}
