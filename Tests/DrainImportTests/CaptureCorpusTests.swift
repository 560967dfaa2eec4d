import CPcap
import DrainImport
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// Every capture of the shared corpus either imports with libpcap's packet count or is refused
/// with a message naming the file; none crashes.
@Suite struct CaptureCorpusTests {
    /// Packets a plain `pcap_next_ex` loop reads from `path` before the end or an error, or
    /// `nil` if libpcap cannot open the file.
    static func libpcapCount(_ path: String) -> Int? {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let handle = pcap_open_offline_with_tstamp_precision(path, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer)
        else { return nil }
        defer { pcap_close(handle) }
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        var count = 0
        while pcap_next_ex(handle, &header, &data) == 1 { count += 1 }
        return count
    }

    @Test func everyCorpusCaptureImportsWithLibpcapsCountOrIsRefusedByName() throws {
        let files = Corpus.files(in: "pcap")
        #expect(files.count >= 50, "the corpus holds the captures of its MANIFEST")
        var imported = 0
        var refused = 0
        for file in files {
            let path = file.path
            let magic = (try? Data(contentsOf: file))?.prefix(4)
            do {
                let input = try CaptureImporter.read(path: path, inputIndex: 0)
                #expect(input.info.packets == Self.libpcapCount(path), "\(file.lastPathComponent)")
                #expect(input.info.format == (magic == Data([0x0A, 0x0D, 0x0D, 0x0A]) ? "pcapng" : "pcap"), "\(file.lastPathComponent)")
                for diagnostic in input.info.diagnostics.entries {
                    print(file.lastPathComponent, diagnostic.severity, diagnostic.code, diagnostic.location ?? "", diagnostic.message)
                }
                print(file.lastPathComponent, "events", input.timeline.count, "flows", input.timeline.flows.count)
                imported += 1
            } catch {
                guard case let .badData(errorPath, _, reason) = error else {
                    Issue.record("\(file.lastPathComponent): expected bad data, got \(error)")
                    continue
                }
                #expect(errorPath == path)
                #expect(error.description.hasPrefix(path))
                #expect(!reason.isEmpty)
                print(file.lastPathComponent, "REFUSED", error)
                refused += 1
            }
        }
        print("corpus: \(imported) imported, \(refused) refused")
        #expect(imported > refused)
    }
}
