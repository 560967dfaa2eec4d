import DrainTrace
import DrainTraceWriter
import Testing

@testable import DrainImport

/// A flow's connection label is written as bytes straight into the string table; it must read
/// as the label's documented form: transport, device side first, ports where the transport has
/// them, IPv6 in brackets, ` #n` for the n-th use of a 5-tuple.
struct ConnectionLabelTests {
    private func label(
        _ a: String, _ portA: UInt16, _ b: String, _ portB: UInt16, transport: UInt8 = 6, generation: UInt32 = 1, deviceIsA: Bool = true
    ) throws -> String {
        let key = FlowKey(
            addressA: try #require(IPAddress(text: a)), addressB: try #require(IPAddress(text: b)), portA: portA, portB: portB,
            transport: transport)
        let state = FlowState(key: key, generation: generation, link: .unspecified, time: 0, fromA: true)
        // Appended after what the buffer holds, as when it is reused.
        var line = JSONLine()
        line.raw("> ")
        FlowTracker.appendConnectionLabel(state, deviceIsA: deviceIsA, to: &line)
        return String(decoding: line.bytes.dropFirst(2), as: UTF8.self)
    }

    @Test func tcpAndUDPCarryPortsDeviceSideFirst() throws {
        #expect(try label("192.168.1.2", 50000, "93.184.216.34", 443) == "tcp 192.168.1.2:50000 → 93.184.216.34:443")
        #expect(try label("192.168.1.2", 50000, "93.184.216.34", 443, deviceIsA: false) == "tcp 93.184.216.34:443 → 192.168.1.2:50000")
        #expect(try label("10.0.0.1", 0, "8.8.8.8", 65535, transport: 17) == "udp 10.0.0.1:0 → 8.8.8.8:65535")
        #expect(try label("10.0.0.1", 9, "8.8.8.8", 10, transport: 132) == "sctp 10.0.0.1:9 → 8.8.8.8:10")
    }

    @Test func ipv6EndpointsAreBracketed() throws {
        #expect(try label("2001:db8::2", 50000, "2001:db8:1::2", 443) == "tcp [2001:db8::2]:50000 → [2001:db8:1::2]:443")
    }

    @Test func transportsWithoutPortsNameAddressesOnly() throws {
        #expect(try label("10.0.0.1", 0, "10.0.0.2", 0, transport: 1) == "icmp 10.0.0.1 → 10.0.0.2")
        #expect(try label("fe80::1", 0, "ff02::1", 0, transport: 58) == "icmpv6 fe80::1 → ff02::1")
        #expect(try label("10.0.0.1", 7, "10.0.0.2", 8, transport: 99) == "ip-proto-99 10.0.0.1 → 10.0.0.2")
        // TCP with both ports zero (a cut header) has no ports to show.
        #expect(try label("10.0.0.1", 0, "10.0.0.2", 0) == "tcp 10.0.0.1 → 10.0.0.2")
    }

    @Test func aReusedFiveTupleIsNumbered() throws {
        #expect(try label("10.0.0.1", 1, "10.0.0.2", 2, generation: 2) == "tcp 10.0.0.1:1 → 10.0.0.2:2 #2")
        #expect(try label("10.0.0.1", 1, "10.0.0.2", 2, generation: 10) == "tcp 10.0.0.1:1 → 10.0.0.2:2 #10")
        #expect(try label("10.0.0.1", 1, "10.0.0.2", 2, generation: .max) == "tcp 10.0.0.1:1 → 10.0.0.2:2 #4294967295")
    }
}
