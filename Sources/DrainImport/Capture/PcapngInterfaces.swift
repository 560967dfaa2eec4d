#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The interfaces a pcapng file declares before its first packet, read from its Interface
/// Description Blocks (libpcap reads them too, but does not expose their names).
struct PcapngInterface: Sendable, Equatable {
    /// `if_name` (option 2), as written: untrusted text.
    var name: String?
    /// The block's LINKTYPE_ value.
    var linkType: UInt16
    var snapLength: UInt32
}

enum PcapngInterfaces {
    /// Scanning stops after this many bytes, at the first packet block or at a new section.
    static let scanLimit = 1 << 20

    /// Reads the Interface Description Blocks at the start of the pcapng file `file` is at the
    /// start of, leaving the file position wherever the scan stopped (callers rewind).
    /// Returns what was found before anything unexpected; never fails. O(blocks scanned).
    static func scan(_ file: UnsafeMutablePointer<FILE>) -> [PcapngInterface] {
        var interfaces: [PcapngInterface] = []
        var header = [UInt8](repeating: 0, count: 12)
        guard fread(&header, 1, 12, file) == 12 else { return [] }
        let magic = UInt32(header[8]) | UInt32(header[9]) << 8 | UInt32(header[10]) << 16 | UInt32(header[11]) << 24
        let littleEndian: Bool
        switch magic {
        case 0x1A2B_3C4D: littleEndian = true
        case 0x4D3C_2B1A: littleEndian = false
        default: return []
        }
        func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
            let value = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
            return littleEndian ? value : value.byteSwapped
        }
        func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
            let value = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
            return littleEndian ? value : value.byteSwapped
        }
        let sectionLength = Int(u32(header, 4))
        guard sectionLength >= 28, sectionLength % 4 == 0, sectionLength <= scanLimit,
            fseek(file, sectionLength - 12, SEEK_CUR) == 0
        else { return [] }
        var scanned = sectionLength
        while scanned < scanLimit {
            var blockHeader = [UInt8](repeating: 0, count: 8)
            guard fread(&blockHeader, 1, 8, file) == 8 else { break }
            let type = u32(blockHeader, 0)
            let length = Int(u32(blockHeader, 4))
            guard length >= 12, length % 4 == 0, scanned + length <= scanLimit else { break }
            scanned += length
            guard type == 1 else {
                // Packet blocks (2 obsolete, 3 simple, 6 enhanced) and a new section end the scan.
                if type == 2 || type == 3 || type == 6 || type == 0x0A0D_0D0A { break }
                guard fseek(file, length - 8, SEEK_CUR) == 0 else { break }
                continue
            }
            var body = [UInt8](repeating: 0, count: length - 8)
            guard body.count >= 12, fread(&body, 1, body.count, file) == body.count else { break }
            var interface = PcapngInterface(name: nil, linkType: u16(body, 0), snapLength: u32(body, 4))
            var option = 8
            let optionsEnd = body.count - 4
            while option + 4 <= optionsEnd {
                let code = u16(body, option)
                let size = Int(u16(body, option + 2))
                guard code != 0, option + 4 + size <= optionsEnd else { break }
                if code == 2 {
                    let bytes = body[(option + 4)..<(option + 4 + size)].prefix { $0 != 0 }
                    interface.name = String(decoding: bytes, as: UTF8.self)
                }
                option += 4 + (size + 3) & ~3
            }
            interfaces.append(interface)
        }
        return interfaces
    }
}
