import DrainImport
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// Files: damage part-way, unreadable and foreign files, libpcap's pcapng limit, clocks.
@Suite struct CaptureFileTests {
    /// Five SYNs one second apart, each 54 bytes of Ethernet: records of 16 + 54 = 70 bytes
    /// after the 24-byte file header.
    func fiveSyns() -> [UInt8] {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        for index in 0..<5 {
            writer.add(at: 1_700_000_000 + Double(index), Frame.ethernet(IPPacket.tcp(from: deviceV4, 50000 + UInt16(index), to: serverV4, 443, seq: 1, flags: IPPacket.syn)))
        }
        return writer.bytes
    }

    @Test func aFileCutInsideAPacketIsReadUpToTheDamageAndSaysWhere() throws {
        let whole = fiveSyns()
        #expect(whole.count == 24 + 5 * 70)
        // Packet 4's record starts at 24 + 3 × 70 = 234; cut 20 bytes into its frame.
        let cut = Array(whole[0..<(234 + 16 + 20)])
        let input = try importCapture(cut)
        #expect(input.info.packets == 3)
        #expect(input.timeline.count == 3)
        #expect(input.timeline.time == [0, 1_000_000_000, 2_000_000_000])
        let truncated = try #require(input.diagnostic("truncated"))
        #expect(truncated.severity == .error)
        #expect(truncated.location == "packet 4, byte 234")
        #expect(truncated.message.contains("after 3 packet(s)"))
        #expect(truncated.message.contains("the last 36 of 270 bytes (from byte 234) were not analysed"))
    }

    @Test func aFileCutInsideARecordHeaderToo() throws {
        let cut = Array(fiveSyns()[0..<(24 + 70 + 7)])
        let input = try importCapture(cut)
        #expect(input.info.packets == 1)
        #expect(input.diagnostic("truncated")?.location == "packet 2, byte 94")
    }

    @Test func aCutPcapngIsReadUpToTheDamage() throws {
        var writer = PcapngWriter()
        writer.addInterface(linkType: 1, name: "en0")
        for index in 0..<3 { writer.add(interface: 0, at: 1_700_000_000 + Double(index), Frame.ethernet(synV4())) }
        let input = try importCapture(Array(writer.bytes.dropLast(10)), name: "capture.pcapng")
        #expect(input.info.packets == 2)
        #expect(input.info.format == "pcapng")
        let truncated = try #require(input.diagnostic("truncated"))
        #expect(truncated.severity == .error)
        #expect(truncated.location?.hasPrefix("packet 3, byte ") == true)
    }

    @Test func pcapngInterfacesOfDifferentLinkTypesAreLibpcapsLimitSaidPlainly() throws {
        var writer = PcapngWriter()
        writer.addInterface(linkType: 1, name: "en0")
        writer.add(interface: 0, at: 1_700_000_000, Frame.ethernet(synV4()))
        writer.addInterface(linkType: 0, name: "lo0")
        writer.add(interface: 1, at: 1_700_000_001, Frame.null(synV4()))
        let input = try importCapture(writer.bytes, name: "capture.pcapng")
        #expect(input.info.packets == 1)
        #expect(input.timeline.count == 1)
        let limit = try #require(input.diagnostic("pcapng-interfaces"))
        #expect(limit.severity == .error)
        #expect(limit.message.contains("cannot read pcapng files whose interfaces have different link types"))
        #expect(limit.message.contains("\"en0\" link type 1 (EN10MB)"))
    }

    @Test func missingFilesAndDirectoriesAreUnreadable() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.pcap").path
        #expect(throws: ImportError.unreadable(path: missing, reason: "No such file or directory")) {
            try CaptureImporter.read(path: missing, inputIndex: 0)
        }
        #expect(throws: ImportError.unreadable(path: directory.path, reason: "it is a directory")) {
            try CaptureImporter.read(path: directory.path, inputIndex: 0)
        }
    }

    @Test func filesThatAreNotCapturesAreBadDataWithLibpcapsReason() throws {
        for (bytes, reason) in [(Array("not a capture at all\n".utf8), "libpcap: unknown file format"), ([UInt8](), "libpcap: truncated dump file")] {
            #expect {
                _ = try importCapture(bytes)
            } throws: { error in
                guard let error = error as? ImportError, case let .badData(path, location, text) = error else { return false }
                return path.hasSuffix("capture.pcap") && location == nil && text.hasPrefix(reason)
            }
        }
    }

    @Test func anEmptyCaptureIsAnEmptyTimeline() throws {
        let input = try importCapture(PcapWriter(linkType: Frame.ethernetType).bytes)
        #expect(input.info.packets == 0)
        #expect(input.timeline.isEmpty)
        #expect(input.timeline.wallClockStart == nil)
        #expect(input.info.diagnostics.isEmpty)
    }

    @Test func packetsEarlierThanTheFirstMoveTimeZeroBack() throws {
        var writer = PcapWriter(linkType: Frame.ethernetType)
        writer.add(at: 1_700_000_010, Frame.ethernet(synV4()))
        writer.add(at: 1_700_000_009, Frame.ethernet(IPPacket.tcp(from: deviceV4, 50001, to: serverV4, 443, seq: 1, flags: IPPacket.syn)))
        let input = try importCapture(writer.bytes)
        #expect(input.timeline.wallClockStart == 1_700_000_009_000_000_000)
        #expect(input.timeline.time == [0, 1_000_000_000])
        #expect(input.timeline.isSorted)
        #expect(input.timeline.flows.firstTime == [1_000_000_000, 0])
        #expect(input.diagnostic("out-of-order-packets")?.location == "packet 2")
        #expect(input.diagnostic("out-of-order") == nil)
    }

    @Test func recognizesCaptureMagicNumbers() {
        let pcap = CaptureImporter.pcap
        #expect(pcap.recognizes(head: [0xD4, 0xC3, 0xB2, 0xA1, 2, 0]))
        #expect(pcap.recognizes(head: [0xA1, 0xB2, 0x3C, 0x4D]))
        #expect(pcap.recognizes(head: [0xA1, 0xB2, 0xCD, 0x34]))
        #expect(pcap.recognizes(head: [0x34, 0xCD, 0xB2, 0xA1]))
        #expect(!pcap.recognizes(head: [0x0A, 0x0D, 0x0D, 0x0A]))
        #expect(CaptureImporter.pcapng.recognizes(head: [0x0A, 0x0D, 0x0D, 0x0A]))
        #expect(!CaptureImporter.pcapng.recognizes(head: [0xD4, 0xC3, 0xB2, 0xA1]))
        #expect(!pcap.recognizes(head: Array("{\"drain_trace\":1}".utf8)))
        #expect(!pcap.recognizes(head: [0xD4, 0xC3]))
    }
}

/// Alexey Kuznetsov's modified pcap (magic `a1b2cd34`), whose records carry 8 more bytes;
/// libpcap reads it, so Drain must recognise it.
@Suite struct ModifiedPcapTests {
    @Test(arguments: [PcapWriter.ByteOrder.little, .big])
    func aModifiedPcapIsRecognisedAndItsPacketsAnalysed(byteOrder: PcapWriter.ByteOrder) throws {
        let writer = GzipInputTests.bigCapture(10, variant: .modified, byteOrder: byteOrder)
        #expect(writer.bytes.count == 24 + 10 * (24 + 254))
        #expect(Array(writer.bytes.prefix(4)) == (byteOrder == .little ? [0x34, 0xCD, 0xB2, 0xA1] : [0xA1, 0xB2, 0xCD, 0x34]))
        for compressed in [false, true] {
            let bytes = compressed ? Gzip.compress(writer.bytes) : writer.bytes
            let input = try withTemporaryFile(bytes, name: compressed ? "modified.pcap.gz" : "modified.pcap") { path in
                #expect(try InputFormat.detect(path: path) == .pcap)
                return try Importers.read(path: path, inputIndex: 0)
            }
            #expect(input.info.format == "pcap")
            #expect(input.info.packets == 10)
            #expect(input.info.wallClockStart == 1_700_000_000_000_000_000)
            // Two flows, five 254-byte frames each, 1 ms apart on each flow (2 ms): one coalesced tx event per flow.
            #expect(input.timeline.count == 2)
            #expect(input.timeline.amount == [5 * 254, 5 * 254])
            #expect(input.timeline.duration == [8_000_000, 8_000_000])
            #expect(input.timeline.flows.count == 2)
            #expect(input.timeline.flows[0].payloadUp == 5 * 200)
            #expect(input.info.diagnostics.entries.map(\.code) == ["device-address"])
        }
    }
}
