import DrainTrace

/// Untrusted input bytes made safe to show in a diagnostic or an error message: invalid
/// UTF-8 repaired, then `UntrustedText.quoted`.
enum QuotedText {
    static func quote(_ bytes: UnsafeRawBufferPointer, limit: Int = 60) -> String {
        UntrustedText.quoted(String(decoding: bytes, as: UTF8.self), limit: limit)
    }
}
