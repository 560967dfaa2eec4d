import Testing

@testable import DrainImport

/// The hash index of flow keys and addresses: every key is found at its place by its hash and
/// the caller's key check, keys of one hash stay apart, a key whose place moves (a 5-tuple used
/// again) is found at its latest place, and growing reads no key.
struct HashIndexTests {
    /// Distinct keys, the flow number of each being its place here.
    private let keys: [FlowKey] = (0..<5_000).map { (number: Int) -> FlowKey in
        let client = IPAddress(v4: 0x0A00_0000 | UInt32(number))
        let transport: UInt8 = number % 3 == 0 ? 17 : 6
        return FlowKey(addressA: client, addressB: IPAddress(v4: 0x5DB8_D822), portA: UInt16(40_000 + number), portB: 443, transport: transport)
    }

    private func hash(_ key: FlowKey) -> UInt32 { HashIndex.hash(of: key) }

    @Test func everyKeyIsFoundAtItsFlowAcrossEachDoubling() {
        var table = HashIndex()
        for (flow, key) in keys.enumerated() {
            #expect(table.place(hash: hash(key)) { keys[Int($0)] == key } == nil)
            table.store(UInt32(flow), hash: hash(key), at: table.probe(hash: hash(key)) { keys[Int($0)] == key })
            #expect(table.count == flow + 1)
            #expect(table.slotCount >= 2 * table.count)
            #expect(table.slotCount & (table.slotCount - 1) == 0)
        }
        // The slots last doubled at flow 4,097, from 8,192 to 16,384: 5,000 fill 31 % of them.
        #expect(table.slotCount == 16_384)
        for (flow, key) in keys.enumerated() {
            #expect(table.place(hash: hash(key)) { keys[Int($0)] == key } == UInt32(flow))
        }
        let stranger = FlowKey(addressA: IPAddress(v4: 1), addressB: IPAddress(v4: 2), portA: 1, portB: 2, transport: 6)
        #expect(table.place(hash: hash(stranger)) { keys[Int($0)] == stranger } == nil)
    }

    /// Every key given one hash, the last slot's: the probes wrap round the end of the table
    /// and only the caller's key check tells the flows apart.
    @Test func keysOfOneHashAreToldApartByTheKeyCheck() {
        var table = HashIndex()
        let shared = UInt32(HashIndex.initialSlots - 1)
        let some = keys.prefix(40)
        for (flow, key) in some.enumerated() {
            table.store(UInt32(flow), hash: shared, at: table.probe(hash: shared) { keys[Int($0)] == key })
        }
        #expect(table.count == 40)
        for (flow, key) in some.enumerated() {
            #expect(table.place(hash: shared) { keys[Int($0)] == key } == UInt32(flow))
        }
        #expect(table.place(hash: shared) { _ in false } == nil)
    }

    /// A key not yet stored costs one search: the probe that misses it ends at the slot the key
    /// then takes, so storing it asks the key check nothing more.
    @Test func aNewKeyIsStoredWhereItsSearchEnded() {
        var table = HashIndex()
        let shared = UInt32(5)
        for flow in 0..<10 {
            table.store(UInt32(flow), hash: shared, at: table.probe(hash: shared) { _ in false })
        }
        var checks = 0
        let probe = table.probe(hash: shared) { _ in
            checks += 1
            return false
        }
        #expect(probe.place == nil)
        #expect(checks == 10)
        table.store(10, hash: shared, at: probe)
        #expect(table.count == 11)
        for flow in 0...10 {
            #expect(table.place(hash: shared) { $0 == UInt32(flow) } == UInt32(flow))
        }
    }

    @Test func aKeyUsedAgainMovesToItsLatestFlowWithoutANewSlot() {
        var table = HashIndex()
        for (flow, key) in keys.prefix(100).enumerated() {
            table.store(UInt32(flow), hash: hash(key), at: table.probe(hash: hash(key)) { keys[Int($0)] == key })
        }
        // Flow 7's 5-tuple opens flow 100: flows 7 and 100 both hold keys[7] from here on.
        var reused = keys.prefix(100).map { $0 }
        reused.append(keys[7])
        table.store(100, hash: hash(keys[7]), at: table.probe(hash: hash(keys[7])) { reused[Int($0)] == keys[7] })
        #expect(table.count == 100)
        #expect(table.place(hash: hash(keys[7])) { reused[Int($0)] == keys[7] } == 100)
        #expect(table.place(hash: hash(keys[8])) { reused[Int($0)] == keys[8] } == 8)
    }

    /// Keys of distinct hashes: the key check is never asked, not even while the slots double
    /// five times, because growing places each slot by the hash it holds.
    @Test func growingReadsNoKey() {
        var table = HashIndex()
        var checks = 0
        for flow in 0..<1_000 {
            let hash = UInt32(flow) &* 2_654_435_761
            let probe = table.probe(hash: hash) { _ in
                checks += 1
                return false
            }
            table.store(UInt32(flow), hash: hash, at: probe)
        }
        #expect(table.slotCount == 2_048)
        #expect(checks == 0)
        for flow in [0, 1, 511, 999] {
            #expect(table.place(hash: UInt32(flow) &* 2_654_435_761) { $0 == UInt32(flow) } == UInt32(flow))
        }
    }
}
