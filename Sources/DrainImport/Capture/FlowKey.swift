/// Identifies a flow by its transport 5-tuple, the same for both directions: side A is the
/// lower (address, port) pair, side B the higher. Fixed size, so looking a packet's flow up
/// allocates nothing.
struct FlowKey: Hashable, Sendable {
    var addressA: IPAddress
    var addressB: IPAddress
    var portA: UInt16
    var portB: UInt16
    var transport: UInt8

    /// The key of a packet, and whether the packet goes from side A to side B.
    @inline(__always)
    static func of(_ packet: DecodedPacket) -> (key: FlowKey, fromA: Bool) {
        let sourceFirst =
            packet.source < packet.destination
            || (packet.source == packet.destination && packet.sourcePort <= packet.destinationPort)
        if sourceFirst {
            return (
                FlowKey(
                    addressA: packet.source, addressB: packet.destination, portA: packet.sourcePort,
                    portB: packet.destinationPort, transport: packet.transport), true
            )
        }
        return (
            FlowKey(
                addressA: packet.destination, addressB: packet.source, portA: packet.destinationPort,
                portB: packet.sourcePort, transport: packet.transport), false
        )
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(addressA.high)
        hasher.combine(addressA.low)
        hasher.combine(addressB.high)
        hasher.combine(addressB.low)
        hasher.combine(UInt64(portA) << 24 | UInt64(portB) << 8 | UInt64(transport))
    }
}
