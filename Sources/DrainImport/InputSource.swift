/// An input file as the importers read it: where it is and how its bytes are stored.
public struct InputSource: Sendable, Equatable {
    /// How the file's bytes are stored, told by its first bytes (not its name).
    public enum Compression: Sendable, Equatable {
        case none
        /// gzip (RFC 1952), one member or several: `1F 8B`.
        case gzip
    }

    /// The path as the user gave it.
    public var path: String
    public var compression: Compression

    public init(path: String, compression: Compression) {
        self.path = path
        self.compression = compression
    }

    /// The compression `head`, the first bytes of a file, starts with.
    static func compression(of head: some Collection<UInt8>) -> Compression {
        head.starts(with: GzipByteSource<MemoryByteSource>.magic) ? .gzip : .none
    }
}
