import DrainTrace

/// Shows how far the import of one large input has got: bytes read, rate and time left, on
/// one line redrawn in place (`\r`), at most every `interval` seconds.
///
/// The meter only formats and throttles; the caller says where the text goes (the CLI sends
/// it to standard error when that is a terminal).
public final class ProgressMeter {
    /// Inputs smaller than this are read too fast to need a meter.
    public static let minimumBytes: Int64 = 50_000_000

    private let name: String
    private let totalBytes: Int64
    private let interval: Double
    private let write: (String) -> Void
    private let now: () -> Double
    private let start: Double
    private var lastDraw: Double
    private var drewAnything = false

    /// - Parameters:
    ///   - name: the input as shown to the user.
    ///   - now: seconds on a monotonic clock (injected so tests control time).
    public init(
        name: String, totalBytes: Int64, interval: Double = 0.25, now: @escaping () -> Double,
        write: @escaping (String) -> Void
    ) {
        self.name = name
        self.totalBytes = totalBytes
        self.interval = interval
        self.write = write
        self.now = now
        start = now()
        lastDraw = start
    }

    /// Records that `bytesRead` bytes have been read; redraws when `interval` has passed.
    public func update(bytesRead: Int64) {
        let time = now()
        guard time - lastDraw >= interval, bytesRead < totalBytes else { return }
        lastDraw = time
        drewAnything = true
        write("\r" + Self.line(name: name, bytesRead: bytesRead, totalBytes: totalBytes, elapsed: time - start) + "\u{1B}[K")
    }

    /// Clears the line once the import is done, if anything was drawn.
    public func finish() {
        if drewAnything { write("\r\u{1B}[K") }
    }

    /// `reading big.pcap: 412 MB of 1.07 GB (38 %), 210 MB/s, 3 s left`.
    public static func line(name: String, bytesRead: Int64, totalBytes: Int64, elapsed: Double) -> String {
        let share = totalBytes > 0 ? Double(bytesRead) / Double(totalBytes) : 0
        var text = "reading \(name): \(ByteFormat.string(Double(bytesRead))) of \(ByteFormat.string(Double(totalBytes)))"
        text += " (\(Int((share * 100).rounded(.down))) %)"
        guard elapsed > 0, bytesRead > 0 else { return text }
        let rate = Double(bytesRead) / elapsed
        let left = Double(totalBytes - bytesRead) / rate
        return text + ", \(ByteFormat.string(rate))/s, \(Int(left.rounded(.up))) s left"
    }
}
