/// A QUIC version whose client Initial packets the importer opens, and what sets it apart:
/// the salt its Initial keys are derived with, the prefix of its key labels, the long-header
/// type bits of its Initial and Retry packets, and what its CRYPTO stream carries.
///
/// Initial packets are encrypted with keys derived from the client's Destination Connection
/// ID and a salt the version publishes (RFC 9001 §5.2), so anyone on the path can open them:
/// that is how the ClientHello's server name is read.
struct QUICInitialVersion: Equatable {
    /// What the client's first CRYPTO stream holds.
    enum Handshake: Equatable {
        /// A TLS 1.3 ClientHello handshake message (RFC 9001 §4).
        case tls
        /// A Google QUIC crypto CHLO message (Q050: QUIC crypto carried in CRYPTO frames).
        case googleCrypto
    }

    /// The version field of the long header.
    let number: UInt32
    let salt: [UInt8]
    /// Put before "key", "iv" and "hp" in the HKDF labels: "quic " (RFC 9001 §5.1) or
    /// "quicv2 " (RFC 9369 §3.3.2).
    let labelPrefix: String
    /// The long-header type bits (bits 4–5 of the first byte) of an Initial and a Retry packet.
    let initialType: UInt8
    let retryType: UInt8
    let handshake: Handshake

    /// QUIC version 1 (RFC 9000 §15): the salt of RFC 9001 §5.2.
    static let version1 = QUICInitialVersion(
        number: 0x0000_0001,
        salt: [
            0x38, 0x76, 0x2C, 0xF7, 0xF5, 0x59, 0x34, 0xB3, 0x4D, 0x17, 0x9A, 0xE6, 0xA4, 0xC8, 0x0C, 0xAD, 0xCC, 0xBB, 0x7F,
            0x0A,
        ],
        labelPrefix: "quic ", initialType: 0, retryType: 3, handshake: .tls)

    /// QUIC version 2, 0x6b3343cf (RFC 9369 §3.1): its own salt (§3.3.1), "quicv2" labels
    /// (§3.3.2) and long-header types (§3.2: Initial 0b01, Retry 0b00).
    static let version2 = QUICInitialVersion(
        number: 0x6B33_43CF,
        salt: [
            0x0D, 0xED, 0xE3, 0xDE, 0xF7, 0x00, 0xA6, 0xDB, 0x81, 0x93, 0x81, 0xBE, 0x6E, 0x26, 0x9D, 0xCB, 0xF9, 0xBD, 0x2E,
            0xD9,
        ],
        labelPrefix: "quicv2 ", initialType: 1, retryType: 0, handshake: .tls)

    /// draft-ietf-quic-transport-29, 0xff00001d, which browsers shipped as "h3-29": the salt of
    /// draft-ietf-quic-tls-29 §5.2, otherwise as version 1.
    static let draft29 = QUICInitialVersion(
        number: 0xFF00_001D,
        salt: [
            0xAF, 0xBF, 0xEC, 0x28, 0x99, 0x93, 0xD2, 0x4C, 0x9E, 0x97, 0x86, 0xF1, 0x9C, 0x61, 0x11, 0xE0, 0x43, 0x90, 0xA8,
            0x99,
        ],
        labelPrefix: "quic ", initialType: 0, retryType: 3, handshake: .tls)

    /// Google QUIC Q050 ("Q050"): the IETF long header with header protection and Initial
    /// keys derived as in version 1 but from Google's own salt (quiche's `kQ050Salt`, "salt
    /// to use for initial obfuscators in version Q050", crypto_utils.cc); its CRYPTO frames
    /// (Google frame type 8) carry a QUIC crypto CHLO rather than a TLS ClientHello.
    static let googleQ050 = QUICInitialVersion(
        number: 0x5130_3530,
        salt: [
            0x50, 0x45, 0x74, 0xEF, 0xD0, 0x66, 0xFE, 0x2F, 0x9D, 0x94, 0x5C, 0xFC, 0xDB, 0xD3, 0xA7, 0xF0, 0xD3, 0xB5, 0x6B,
            0x45,
        ],
        labelPrefix: "quic ", initialType: 0, retryType: 3, handshake: .googleCrypto)

    /// The version numbered `number`, if its Initials can be opened.
    init?(_ number: UInt32) {
        switch number {
        case Self.version1.number: self = Self.version1
        case Self.version2.number: self = Self.version2
        case Self.draft29.number: self = Self.draft29
        case Self.googleQ050.number: self = Self.googleQ050
        default: return nil
        }
    }

    private init(number: UInt32, salt: [UInt8], labelPrefix: String, initialType: UInt8, retryType: UInt8, handshake: Handshake) {
        self.number = number
        self.salt = salt
        self.labelPrefix = labelPrefix
        self.initialType = initialType
        self.retryType = retryType
        self.handshake = handshake
    }
}
