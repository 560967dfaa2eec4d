/// The start of a client's Initial CRYPTO stream, put back together from the CRYPTO frames
/// of its Initial packets, which may come in any order, overlap, and span several packets
/// (RFC 9000 §19.6; browsers split and shuffle the ClientHello over several frames). Bounded:
/// it holds at most `limit` bytes in at most `pieceLimit` separate pieces.
struct QUICCryptoStream {
    /// The largest stream offset kept: a ClientHello longer than this is not read.
    static let limit = TLSClientHello.reassemblyLimit
    /// The most disjoint pieces kept before giving up.
    static let pieceLimit = 64

    private(set) var bytes: [UInt8] = []
    /// The stream ranges received, sorted, disjoint and not adjacent.
    private var received: [Range<Int>] = []

    /// Bytes from offset 0 received without a gap.
    var contiguous: Int { received.first.map { $0.lowerBound == 0 ? $0.upperBound : 0 } ?? 0 }

    /// Adds the frame data `data` at stream offset `offset`; `false` if it reaches past
    /// `limit` or leaves too many pieces (the stream is then not worth keeping).
    mutating func add(offset: UInt64, _ data: UnsafeRawBufferPointer) -> Bool {
        guard offset <= UInt64(Self.limit), data.count <= Self.limit - Int(offset) else { return false }
        guard !data.isEmpty else { return true }
        let range = Int(offset)..<Int(offset) + data.count
        if bytes.count < range.upperBound { bytes += repeatElement(0, count: range.upperBound - bytes.count) }
        bytes.withUnsafeMutableBytes { stream in UnsafeMutableRawBufferPointer(rebasing: stream[range]).copyMemory(from: data) }
        var merged = range
        var kept: [Range<Int>] = []
        kept.reserveCapacity(received.count + 1)
        for piece in received {
            if piece.upperBound < merged.lowerBound || piece.lowerBound > merged.upperBound {
                kept.append(piece)
            } else {
                merged = min(piece.lowerBound, merged.lowerBound)..<max(piece.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        kept.sort { $0.lowerBound < $1.lowerBound }
        received = kept
        return received.count <= Self.pieceLimit
    }
}

/// The frames of an opened Initial packet, walked for their CRYPTO frames. Initial packets
/// carry only PADDING, PING, ACK, CRYPTO and CONNECTION_CLOSE frames (RFC 9000 §12.4,
/// Table 3); Q050 carries Google QUIC frames, of which a client's Initial holds PADDING,
/// PING and CRYPTO.
enum QUICInitialFrames {
    /// Calls `crypto` with the offset and data of each CRYPTO frame in `frames`, in packet
    /// order, until it returns `false`. Stops at the first frame it cannot walk past (a
    /// CONNECTION_CLOSE, anything malformed or unexpected); whatever came before counts.
    static func forEachCrypto(
        in frames: UnsafeRawBufferPointer, handshake: QUICInitialVersion.Handshake,
        _ crypto: (UInt64, UnsafeRawBufferPointer) -> Bool
    ) {
        var position = 0
        while position < frames.count {
            let type = frames[position]
            position += 1
            switch (handshake, type) {
            case (.tls, 0x00), (.tls, 0x01), (.googleCrypto, 0x00), (.googleCrypto, 0x07):
                // PADDING and PING are one byte (Google QUIC's padding too since Q038, which
                // took "the IETF padding frame format": quiche's quic_versions.h).
                continue
            case (.tls, 0x02), (.tls, 0x03):
                guard skipACK(frames, at: &position, withECN: type == 0x03) else { return }
            case (.tls, 0x06), (.googleCrypto, 0x08):
                // CRYPTO: offset and length, variable-length integers in both framings
                // (RFC 9000 §19.6; quiche's QuicFramer::ProcessCryptoFrame).
                guard let offset = QUICVarInt.read(frames, at: &position),
                    let length = QUICVarInt.read(frames, at: &position),
                    length <= UInt64(frames.count - position)
                else { return }
                let data = frames.slice(position..<position + Int(length))
                position += Int(length)
                guard crypto(offset, data) else { return }
            default:
                return
            }
        }
    }

    /// Moves past an ACK frame's fields after its type (RFC 9000 §19.3).
    private static func skipACK(_ frames: UnsafeRawBufferPointer, at position: inout Int, withECN: Bool) -> Bool {
        // Largest acknowledged, delay, range count, first range.
        guard QUICVarInt.read(frames, at: &position) != nil, QUICVarInt.read(frames, at: &position) != nil,
            let ranges = QUICVarInt.read(frames, at: &position), QUICVarInt.read(frames, at: &position) != nil,
            ranges <= UInt64(frames.count)
        else { return false }
        // Each further range is a gap and a length.
        for _ in 0..<2 * Int(ranges) + (withECN ? 3 : 0) {
            guard QUICVarInt.read(frames, at: &position) != nil else { return false }
        }
        return true
    }
}
