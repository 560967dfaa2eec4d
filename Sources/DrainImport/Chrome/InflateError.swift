/// Why a DEFLATE or gzip stream could not be decoded.
enum InflateError: Error {
    /// The compressed input ended in the middle of the stream (a cut-off file).
    case endOfInput
    /// The compressed data is corrupt; the message says how.
    case invalid(String)
    /// Reading the compressed input failed.
    case source(ImportError)
}
