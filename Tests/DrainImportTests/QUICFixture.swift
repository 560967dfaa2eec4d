import Crypto
import DrainTestSupport
import Foundation
import _CryptoExtras

/// The bytes of a hex string; spaces and line breaks are ignored.
func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.filter(\.isHexDigit))
    return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
}

/// Builds protected QUIC client Initial packets for tests, written apart from the importer's
/// code: HKDF is spelled out with HMAC (RFC 5869 §2), and the header-protection mask is the
/// first block of AES-CBC with a zero IV, which is AES-ECB of that block.
enum QUICFixture {
    /// What a version changes in an Initial: salt, label prefix and Initial type bits.
    struct Version {
        let number: UInt32
        let salt: [UInt8]
        let labelPrefix: String
        let initialType: UInt8

        /// RFC 9001 §5.2.
        static let v1 = Version(
            number: 1, salt: hexBytes("38762cf7f55934b34d179ae6a4c80cadccbb7f0a"), labelPrefix: "quic", initialType: 0)
        /// RFC 9369 §3.1, §3.2, §3.3.
        static let v2 = Version(
            number: 0x6B33_43CF, salt: hexBytes("0dede3def700a6db819381be6e269dcbf9bd2ed9"), labelPrefix: "quicv2",
            initialType: 1)
        /// draft-ietf-quic-tls-29 §5.2.
        static let draft29 = Version(
            number: 0xFF00_001D, salt: hexBytes("afbfec289993d24c9e9786f19c6111e04390a899"), labelPrefix: "quic",
            initialType: 0)
        /// quiche's kQ050Salt.
        static let q050 = Version(
            number: 0x5130_3530, salt: hexBytes("504574efd066fe2f9d945cfcdbd3a7f0d3b56b45"), labelPrefix: "quic",
            initialType: 0)
    }

    struct Keys {
        let key: [UInt8]
        let iv: [UInt8]
        let hp: [UInt8]
    }

    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// HKDF-Expand-Label (RFC 8446 §7.1) for outputs of at most one SHA-256 block.
    static func expandLabel(_ secret: [UInt8], _ label: String, length: Int) -> [UInt8] {
        let fullLabel = Array("tls13 \(label)".utf8)
        let info = [UInt8(length >> 8), UInt8(length & 0xFF), UInt8(fullLabel.count)] + fullLabel + [0]
        return Array(hmac(key: secret, info + [1]).prefix(length))
    }

    static func clientKeys(_ version: Version, destinationID: [UInt8]) -> Keys {
        let initialSecret = hmac(key: version.salt, destinationID)
        let clientSecret = expandLabel(initialSecret, "client in", length: 32)
        return Keys(
            key: expandLabel(clientSecret, "\(version.labelPrefix) key", length: 16),
            iv: expandLabel(clientSecret, "\(version.labelPrefix) iv", length: 12),
            hp: expandLabel(clientSecret, "\(version.labelPrefix) hp", length: 16))
    }

    /// A QUIC variable-length integer in 1, 2 or 4 bytes.
    static func varint(_ value: Int) -> [UInt8] {
        if value < 64 { return [UInt8(value)] }
        if value < 16384 { return [0x40 | UInt8(value >> 8), UInt8(value & 0xFF)] }
        return [0x80 | UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A CRYPTO frame (type 0x06, or Google QUIC's 0x08).
    static func cryptoFrame(offset: Int, _ data: [UInt8], type: UInt8 = 0x06) -> [UInt8] {
        [type] + varint(offset) + varint(data.count) + data
    }

    /// A client Initial of `version` carrying `frames`, padded to 1200 bytes with PADDING,
    /// with a 4-byte packet number, sealed and header-protected with `keys` (by default those
    /// of `destinationID`).
    static func initial(
        _ version: Version, destinationID: [UInt8], sourceID: [UInt8] = [0xC1, 0x1E, 0x17], packetNumber: UInt32,
        frames: [UInt8], keys given: Keys? = nil
    ) throws -> [UInt8] {
        let keys = given ?? clientKeys(version, destinationID: destinationID)
        let headerBeforeLength: [UInt8] =
            [0xC0 | version.initialType << 4 | 0x03]
            + withUnsafeBytes(of: version.number.bigEndian, Array.init)
            + [UInt8(destinationID.count)] + destinationID + [UInt8(sourceID.count)] + sourceID + [0]
        let packetNumberBytes = withUnsafeBytes(of: packetNumber.bigEndian, Array.init)
        let plaintextLength = max(frames.count, 1200 - headerBeforeLength.count - 2 - 4 - 16)
        let plaintext = frames + [UInt8](repeating: 0, count: plaintextLength - frames.count)
        let header = headerBeforeLength + varint(4 + plaintext.count + 16).paddedTo2Bytes + packetNumberBytes
        var nonce = keys.iv
        for index in 0..<4 { nonce[8 + index] ^= packetNumberBytes[index] }
        let sealed = try AES.GCM.seal(
            plaintext, using: SymmetricKey(data: keys.key), nonce: AES.GCM.Nonce(data: nonce), authenticating: header)
        let protected = Array(sealed.ciphertext) + Array(sealed.tag)
        // The sample starts 4 bytes after the packet number's start: here, the first ciphertext byte.
        let sample = Array(protected[0..<16])
        let zeroIV = try AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16))
        let mask = Array(try AES._CBC.encrypt(sample, using: SymmetricKey(data: keys.hp), iv: zeroIV, noPadding: true).prefix(5))
        var packet = header + protected
        packet[0] ^= mask[0] & 0x0F
        for index in 0..<4 { packet[header.count - 4 + index] ^= mask[1 + index] }
        return packet
    }

    /// The ClientHello handshake message (no TLS record header) with a server name.
    static func clientHello(serverName: String?, paddingBytes: Int = 0) -> [UInt8] {
        Array(TLS.clientHello(serverName: serverName, paddingBytes: paddingBytes).dropFirst(5))
    }

    /// A QUIC crypto handshake message "CHLO" with the tags given in order (values as bytes).
    static func chlo(_ tags: [(String, [UInt8])]) -> [UInt8] {
        var message = Array("CHLO".utf8) + [UInt8(tags.count & 0xFF), UInt8(tags.count >> 8), 0, 0]
        var end: UInt32 = 0
        for (tag, value) in tags {
            end += UInt32(value.count)
            message += Array(tag.utf8).padded(to: 4) + withUnsafeBytes(of: end.littleEndian, Array.init)
        }
        for (_, value) in tags { message += value }
        return message
    }
}

extension Array where Element == UInt8 {
    /// A one-byte varint rewritten in the two-byte form (the Length field is then always 2 bytes).
    fileprivate var paddedTo2Bytes: [UInt8] {
        count == 1 ? [0x40, self[0]] : self
    }

    fileprivate func padded(to length: Int) -> [UInt8] {
        self + [UInt8](repeating: 0, count: length - count)
    }
}
