/// Decides which side of each flow is the device: the capturing phone or computer, whose
/// packets are `tx`.
///
/// The device's address is, per family, `--device-ip` when it names one of that family;
/// else for IPv4 the private or link-local address (RFC 1918, carrier-grade NAT 100.64/10,
/// 169.254/16) seen in the most packets, or the most frequent IPv4 address if there is no
/// private one; for IPv6, where devices use global addresses, the address seen in the most
/// TCP and UDP packets. Counting uses flows between two unicast addresses only.
///
/// A flow with the device address on one side has its direction. Otherwise, in order: the
/// unicast side of a flow with a multicast or broadcast side; the private side of a flow
/// between a private and a public address; the side that sent the TCP SYN; the side with
/// the higher (ephemeral) port; the side that sent the first packet.
struct DeviceSide {
    var ipv4: IPAddress?
    var ipv6: IPAddress?
    /// How the IPv4 and IPv6 addresses were chosen, for the `device-address` diagnostic.
    var ipv4Reason = ""
    var ipv6Reason = ""
    /// Whether the address given by `--device-ip`, if any, is in some flow.
    var givenSeen = true

    init(flows: some Collection<FlowState>, given: IPAddress?) {
        let counts = PacketCounts(flows: flows)
        /// The address with the highest count, the lowest address on a tie (deterministic).
        func mostFrequent(_ column: [Int], where include: (IPAddress) -> Bool) -> IPAddress? {
            var best: Int?
            for place in column.indices where column[place] > 0 && include(counts.addresses[place]) {
                guard let current = best else {
                    best = place
                    continue
                }
                let (count, address) = (column[place], counts.addresses[place])
                if count > column[current] || (count == column[current] && address < counts.addresses[current]) {
                    best = place
                }
            }
            return best.map { counts.addresses[$0] }
        }
        if let given {
            givenSeen = flows.contains { $0.key.addressA == given || $0.key.addressB == given }
        }
        if let given, given.isV4 {
            ipv4 = given
            ipv4Reason = "given by --device-ip"
        } else if let address = mostFrequent(counts.packets, where: { $0.isV4 && ($0.scope == .privateNetwork || $0.scope == .linkLocal) }) {
            ipv4 = address
            ipv4Reason = "the private IPv4 address in the most packets"
        } else if let address = mostFrequent(counts.packets, where: \.isV4) {
            ipv4 = address
            ipv4Reason = "the IPv4 address in the most packets (there is no private one)"
        }
        if let given, !given.isV4 {
            ipv6 = given
            ipv6Reason = "given by --device-ip"
        } else if let address = mostFrequent(counts.transportPackets, where: { !$0.isV4 }) {
            ipv6 = address
            ipv6Reason = "the IPv6 address in the most TCP and UDP packets"
        }
    }

    /// Packets per unicast address, in flows between two unicast addresses: in all of them, and
    /// in TCP and UDP ones. Columns by address, in order of first appearance, found through a
    /// `HashIndex`: one entry per address, and growing rehashes none (with a dictionary per
    /// count, this took 21 % of the run on a capture of a million flows, each to an address of
    /// its own, and 6 % now). O(flows) expected.
    private struct PacketCounts {
        let addresses: [IPAddress]
        let packets: [Int]
        let transportPackets: [Int]

        init(flows: some Collection<FlowState>) {
            var index = HashIndex()
            var addresses: [IPAddress] = []
            var packets: [Int] = []
            var transportPackets: [Int] = []
            func place(of address: IPAddress) -> Int {
                let hash = HashIndex.hash(of: address)
                let probe = index.probe(hash: hash) { addresses[Int($0)] == address }
                if let found = probe.place { return Int(found) }
                index.store(UInt32(addresses.count), hash: hash, at: probe)
                addresses.append(address)
                packets.append(0)
                transportPackets.append(0)
                return addresses.count - 1
            }
            for flow in flows where flow.key.addressA.isUnicast && flow.key.addressB.isUnicast {
                let a = place(of: flow.key.addressA)
                let b = place(of: flow.key.addressB)
                let count = Int(flow.packets[0]) + Int(flow.packets[1])
                packets[a] += count
                packets[b] += count
                if flow.key.transport == 6 || flow.key.transport == 17 {
                    transportPackets[a] += count
                    transportPackets[b] += count
                }
            }
            (self.addresses, self.packets, self.transportPackets) = (addresses, packets, transportPackets)
        }
    }

    /// Whether side A of `flow` is the device.
    func deviceIsA(_ flow: FlowState) -> Bool {
        let a = flow.key.addressA
        let b = flow.key.addressB
        let aIsDevice = a == ipv4 || a == ipv6
        let bIsDevice = b == ipv4 || b == ipv6
        if aIsDevice != bIsDevice { return aIsDevice }
        if a.isUnicast != b.isUnicast { return a.isUnicast }
        let aPrivate = a.scope == .privateNetwork || a.scope == .linkLocal
        let bPrivate = b.scope == .privateNetwork || b.scope == .linkLocal
        if aPrivate != bPrivate { return aPrivate }
        if flow.synSide != 0 { return flow.synSide == 1 }
        if flow.key.portA != flow.key.portB, flow.key.portA != 0, flow.key.portB != 0 {
            return flow.key.portA > flow.key.portB
        }
        return flow.firstFromA
    }
}
