import DrainImport
import DrainTestSupport
import DrainTrace
import Testing

/// Flows and HTTP messages follow their capture onto the merged timeline.
@Suite struct CaptureMergeTests {
    func httpCapture(at start: Double, host: String, path: String, port: UInt16) -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        writer.add(at: start, Frame.ethernet(IPPacket.tcp(from: deviceV4, port, to: serverV4, 80, seq: 1, flags: IPPacket.syn)))
        writer.add(at: start + 0.5, Frame.ethernet(IPPacket.tcp(from: deviceV4, port, to: serverV4, 80, seq: 2, flags: IPPacket.ack, HTTP.request("POST", path, headers: [("Host", host), ("Content-Type", "application/json")]))))
        return writer.bytes
    }

    @Test func mergeShiftsFlowTimesAndRemapsTheirStrings() throws {
        let first = try importCapture(httpCapture(at: 1_700_000_000, host: "a.example", path: "/a", port: 50000))
        let second = try importCapture(httpCapture(at: 1_700_000_005, host: "b.example", path: "/b", port: 50001))
        var diagnostics = [ImportDiagnostics(), ImportDiagnostics()]
        let merged = Timeline.merge([second.timeline, first.timeline], diagnostics: &diagnostics)
        let flows = merged.flows
        #expect(flows.count == 2)
        #expect(flows.input == [0, 1])
        // The second capture starts 5 s after the first, which is time zero.
        #expect(flows.firstTime == [5_000_000_000, 0])
        #expect(flows.firstDataTime == [5_500_000_000, 500_000_000])
        #expect(flows.finTime == [FlowTable.never, FlowTable.never])
        #expect(flows.endpoint.map { merged.strings[$0] } == ["b.example", "a.example"])
        #expect(flows.connection.map { merged.strings[$0] } == [
            "tcp 192.168.1.2:50001 → 93.184.216.34:80", "tcp 192.168.1.2:50000 → 93.184.216.34:80",
        ])
        #expect(flows.http.flow == [0, 1])
        #expect(flows.http.path.map { merged.strings[$0] } == ["/b", "/a"])
        #expect(flows.http.time == [5_500_000_000, 500_000_000])
        let connection = try #require(merged.label2.first)
        #expect(flows.index(ofConnection: connection, input: merged.input[0]) == 1)
    }

    @Test func aSingleCaptureKeepsItsFlowsAsInputZero() throws {
        var only = try importCapture(httpCapture(at: 1_700_000_000, host: "a.example", path: "/a", port: 50000)).timeline
        only.flows.setInput(3)
        var diagnostics = [ImportDiagnostics()]
        let merged = Timeline.merge([only], diagnostics: &diagnostics)
        #expect(merged.flows.input == [0])
        #expect(merged.flows.count == 1)
    }
}
