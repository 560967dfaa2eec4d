import DrainTestSupport
import Foundation
import Testing

@Suite struct CaptureCommandTests {
    /// Every real capture of the shared corpus analyses (exit 0, a JSON report whose packet
    /// count is what libpcap read) or is refused as bad data naming the file (exit 65).
    @Test(arguments: Corpus.files(in: "pcap"))
    func corpusCaptureAnalysesOrIsRefusedCleanly(_ file: URL) throws {
        let result = try DrainCommand.run(["analyze", file.path, "--json", "-"])
        if result.status == 0 {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let inputs = try #require(object["inputs"] as? [[String: Any]])
            #expect(inputs.first?["format"] as? String == "pcap" || inputs.first?["format"] as? String == "pcapng")
            #expect(inputs.first?["packets"] is Int)
        } else {
            #expect(result.status == 65, "\(file.lastPathComponent): \(result.standardError)")
            #expect(result.standardError.contains(file.path))
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test func linkOverrideSwitchesTheRadioModel() throws {
        let capture = Corpus.root.appendingPathComponent("pcap/pcapdroid__two_flows.pcap").path
        let cellular = try DrainCommand.run(["analyze", capture, "--link", "cellular", "--json", "-"])
        let wifi = try DrainCommand.run(["analyze", capture, "--link", "wifi", "--json", "-"])
        #expect(cellular.status == 0 && wifi.status == 0)
        func radioStates(_ result: CommandResult) throws -> Set<String> {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let radio = try #require(object["radio"] as? [String: Any])
            let states = try #require(radio["states"] as? [[String: Any]])
            return Set(states.compactMap { $0["link"] as? String })
        }
        #expect(try radioStates(cellular) == ["cellular"])
        #expect(try radioStates(wifi) == ["wifi"])
    }

    @Test func invalidDeviceAddressIsAUsageError() throws {
        let capture = Corpus.root.appendingPathComponent("pcap/pcapdroid__two_flows.pcap").path
        let result = try DrainCommand.run(["analyze", capture, "--device-ip", "300.1.2.3"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("300.1.2.3"))
    }
}
