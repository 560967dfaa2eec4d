import DrainPipeline
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// The endpoints table marks a host `local` when its traffic stayed on the local link: by
/// its address, or because every flow with it was sent to a link-layer group.
@Suite struct LocalEndpointTests {
    @Test func aSubnetBroadcastIsALocalEndpointAndAGatewayWithRoutedTrafficIsNot() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = "192.168.1.2"
        var writer = PcapWriter(linkType: Frame.ethernetType)
        // The gateway broadcasts to the subnet once; the device also talks to the gateway
        // itself (unicast, e.g. DNS), so the gateway is not local.
        writer.add(at: 1_700_000_000, Frame.ethernet(IPPacket.udp(from: device, 137, to: "192.168.1.255", 137, [1, 2]), destination: Frame.broadcastMAC))
        writer.add(at: 1_700_000_001, Frame.ethernet(IPPacket.udp(from: "192.168.1.1", 67, to: "255.255.255.255", 68, [3]), destination: Frame.broadcastMAC))
        writer.add(at: 1_700_000_002, Frame.ethernet(IPPacket.udp(from: device, 50000, to: "192.168.1.1", 53, [4])))
        writer.add(at: 1_700_000_003, Frame.ethernet(IPPacket.udp(from: device, 50001, to: "93.184.216.34", 443, [5])))
        let capture = directory.appendingPathComponent("lan.pcap")
        try writer.write(to: capture)
        let report = try Analysis.run(AnalysisOptions(inputs: [capture.path]))
        var local: [String: Bool] = [:]
        for endpoint in report.endpoints { local[endpoint.endpoint] = endpoint.local }
        #expect(local["192.168.1.255"] == true)
        #expect(local["255.255.255.255"] == true)
        #expect(local["192.168.1.1"] == false)
        #expect(local["93.184.216.34"] == false)
    }
}
