extension CaptureImporter: InputImporter {
    public var displayName: String { format == .pcapng ? "pcapng captures" : "pcap captures" }

    public var summary: String {
        format == .pcapng
            ? "pcapng packet captures (Wireshark, tcpdump, rvictl, PCAPdroid), read through libpcap"
            : "pcap packet captures, micro- or nanosecond, either byte order, Kuznetsov's modified pcap; read through libpcap"
    }

    /// The magic numbers libpcap reads, in either byte order: for pcap `a1b2c3d4`
    /// (microseconds), `a1b23c4d` (nanoseconds) and `a1b2cd34` (Alexey Kuznetsov's modified
    /// pcap, with longer record headers); for pcapng a Section Header Block, `0a0d0d0a`.
    public func recognizes(head: [UInt8]) -> Bool {
        guard head.count >= 4 else { return false }
        let magic = UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3])
        let magics: [UInt32] =
            format == .pcapng
            ? [0x0A0D_0D0A] : [0xA1B2_C3D4, 0xD4C3_B2A1, 0xA1B2_3C4D, 0x4D3C_B2A1, 0xA1B2_CD34, 0x34CD_B2A1]
        return magics.contains(magic)
    }

    public func read(
        source: InputSource, inputIndex: UInt16, capture: CaptureOptions, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput {
        var options = capture
        options.progress = progress ?? capture.progress
        return try Self.read(path: source.path, compression: source.compression, inputIndex: inputIndex, options: options)
    }
}
