import CPcap
import DrainImport
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// Every capture of the shared corpus either imports with libpcap's packet count or is refused
/// with a message naming the file; none crashes.
@Suite struct CaptureCorpusTests {
    /// Packets a plain `pcap_next_ex` loop reads from `path`, and whether libpcap stopped with
    /// an error rather than at the end of the file; `nil` if libpcap cannot open the file.
    static func libpcapRead(_ path: String) -> (packets: Int, stoppedEarly: Bool)? {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let handle = pcap_open_offline_with_tstamp_precision(path, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer)
        else { return nil }
        defer { pcap_close(handle) }
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        var count = 0
        var status = pcap_next_ex(handle, &header, &data)
        while status == 1 {
            count += 1
            status = pcap_next_ex(handle, &header, &data)
        }
        return (count, status != PCAP_ERROR_BREAK)
    }

    @Test func everyCorpusCaptureImportsWithLibpcapsCountOrIsRefusedByName() throws {
        let files = Corpus.files(in: "pcap")
        #expect(files.count >= 50, "the corpus holds the captures of its MANIFEST")
        var imported = 0
        var refused = 0
        for file in files {
            let name = file.lastPathComponent
            let path = file.path
            let magic = (try? Data(contentsOf: file))?.prefix(4)
            let result = Result { () throws(ImportError) in try CaptureImporter.read(path: path, inputIndex: 0) }
            switch result {
            case let .success(input):
                let libpcap = try #require(Self.libpcapRead(path), "\(name): libpcap opens what the importer read")
                #expect(input.info.packets == libpcap.packets, "\(name)")
                #expect(input.info.format == (magic == Data([0x0A, 0x0D, 0x0D, 0x0A]) ? "pcapng" : "pcap"), "\(name)")
                // Where libpcap stopped part-way, an error diagnostic says so.
                let stopped = input.info.diagnostics.entries.contains { $0.severity == .error }
                #expect(stopped == libpcap.stoppedEarly, "\(name)")
                // Every byte of the timeline belongs to a flow, and the other way round.
                let flows = input.timeline.flows
                let flowBytes = zip(flows.bytesUp, flows.bytesDown).reduce(0) { $0 + $1.0 + $1.1 }
                #expect(input.timeline.amount.reduce(0, +) == flowBytes, "\(name)")
                #expect(input.timeline.isSorted, "\(name)")
                imported += 1
            case let .failure(error):
                guard case let .badData(errorPath, _, reason) = error else {
                    Issue.record("\(name): expected bad data, got \(error)")
                    continue
                }
                #expect(errorPath == path)
                #expect(error.description.hasPrefix(path))
                #expect(!reason.isEmpty)
                refused += 1
            }
        }
        // 47 of the corpus' 55 captures are read; the others are broken, compressed, or of
        // link types without IP (NETLINK, InfiniBand, USER13).
        #expect(imported >= 47)
        #expect(refused <= 8)
    }
}
