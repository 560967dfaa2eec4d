import Crypto
import _CryptoExtras

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The keys that protect a client's Initial packets, derived from the Destination Connection
/// ID of its first Initial (RFC 9001 §5.2):
///
///     initial_secret = HKDF-Extract(salt, client's Destination Connection ID)
///     client_initial_secret = HKDF-Expand-Label(initial_secret, "client in", "", 32)
///     key = HKDF-Expand-Label(client_initial_secret, "quic key", "", 16)
///     iv  = HKDF-Expand-Label(client_initial_secret, "quic iv", "", 12)
///     hp  = HKDF-Expand-Label(client_initial_secret, "quic hp", "", 16)
///
/// with SHA-256 and AEAD_AES_128_GCM (RFC 9001 §5), the labels' "quic" being "quicv2" in
/// version 2 (RFC 9369 §3.3.2).
struct QUICInitialKeys {
    let key: SymmetricKey
    let iv: [UInt8]
    let headerProtection: SymmetricKey

    init(version: QUICInitialVersion, destinationID: UnsafeRawBufferPointer) {
        let initialSecret = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: destinationID), salt: version.salt)
        let clientSecret = Self.expandLabel(initialSecret, "client in", length: 32)
        key = Self.expandLabel(clientSecret, version.labelPrefix + "key", length: 16)
        iv = Self.expandLabel(clientSecret, version.labelPrefix + "iv", length: 12).withUnsafeBytes { Array($0) }
        headerProtection = Self.expandLabel(clientSecret, version.labelPrefix + "hp", length: 16)
    }

    /// TLS 1.3's HKDF-Expand-Label with an empty context (RFC 8446 §7.1): HKDF-Expand of the
    /// HkdfLabel structure, a 16-bit output length, then "tls13 " + `label` and an empty
    /// context, each behind a one-byte length.
    static func expandLabel(_ secret: some ContiguousBytes, _ label: String, length: Int) -> SymmetricKey {
        let fullLabel = Array("tls13 \(label)".utf8)
        var info: [UInt8] = [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        info.append(UInt8(truncatingIfNeeded: fullLabel.count))
        info += fullLabel
        info.append(0)
        return HKDF<SHA256>.expand(pseudoRandomKey: secret, info: info, outputByteCount: length)
    }
}

/// Opens a client Initial packet: removes its header protection and decrypts its payload.
enum QUICInitialDecryptor {
    /// An opened Initial: its full packet number and its frames.
    struct Opened {
        let packetNumber: Int64
        let frames: [UInt8]
    }

    /// Bytes of ciphertext sampled for the header-protection mask, and of the AEAD tag.
    static let sampleLength = 16
    static let tagLength = 16

    /// Opens the packet `header` of `datagram` with `keys`; `largestPacketNumber` is the
    /// largest packet number opened before in this direction (-1 for none), against which a
    /// truncated packet number is expanded. `nil` if the packet is cut short or was not sealed
    /// with these keys (a server's Initial, another connection's). Allocates: call it only
    /// for the first Initial packets of a flow.
    static func open(
        _ datagram: UnsafeRawBufferPointer, header: QUICLongHeader, keys: QUICInitialKeys, largestPacketNumber: Int64
    ) -> Opened? {
        // Header protection (RFC 9001 §5.4.1, §5.4.2): the sample is taken as if the packet
        // number were 4 bytes long; its AES-ECB encryption under hp is the mask (§5.4.3).
        let sampleStart = header.packetNumberOffset + 4
        guard sampleStart + sampleLength <= header.end else { return nil }
        var mask = Array(datagram.slice(sampleStart..<sampleStart + sampleLength))
        guard (try? AES.permute(&mask, key: keys.headerProtection)) != nil else { return nil }
        let firstByte = datagram[header.start] ^ (mask[0] & 0x0F)
        let packetNumberLength = Int(firstByte & 0x03) + 1
        let payloadStart = header.packetNumberOffset + packetNumberLength

        // The associated data is the header with its protection removed (§5.3).
        var associatedData = Array(datagram.slice(header.start..<payloadStart))
        associatedData[0] = firstByte
        var truncated: Int64 = 0
        for index in 0..<packetNumberLength {
            let position = header.packetNumberOffset - header.start + index
            associatedData[position] ^= mask[1 + index]
            truncated = truncated << 8 | Int64(associatedData[position])
        }
        let packetNumber = expandPacketNumber(truncated, length: packetNumberLength, largest: largestPacketNumber)

        // The nonce is the IV with the packet number, left-padded, XORed into its end (§5.3).
        var nonce = keys.iv
        for index in 0..<8 {
            nonce[nonce.count - 1 - index] ^= UInt8(truncatingIfNeeded: packetNumber >> (8 * index))
        }
        let tagStart = header.end - tagLength
        guard payloadStart <= tagStart,
            let gcmNonce = try? AES.GCM.Nonce(data: nonce),
            let box = try? AES.GCM.SealedBox(
                nonce: gcmNonce, ciphertext: datagram.slice(payloadStart..<tagStart), tag: datagram.slice(tagStart..<header.end)),
            let plaintext = try? AES.GCM.open(box, using: keys.key, authenticating: associatedData)
        else { return nil }
        return Opened(packetNumber: packetNumber, frames: Array(plaintext))
    }

    /// The full packet number whose `length` low bytes are `truncated`: the one closest to the
    /// packet after `largest` (RFC 9000 §17.1 and its Appendix A.3).
    static func expandPacketNumber(_ truncated: Int64, length: Int, largest: Int64) -> Int64 {
        let expected = largest + 1
        let window: Int64 = 1 << (8 * length)
        let halfWindow = window / 2
        let candidate = (expected & ~(window - 1)) | truncated
        if candidate <= expected - halfWindow, candidate < (1 << 62) - window { return candidate + window }
        if candidate > expected + halfWindow, candidate >= window { return candidate - window }
        return candidate
    }
}
