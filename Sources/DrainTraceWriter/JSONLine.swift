/// JSON text built in a growable byte buffer, a piece at a time: the bounds-checked face
/// of `JSONFormatter` for writers that do not size their memory themselves (the recorder,
/// the Drain trace and Chrome trace exports). Each call makes room for the most its piece
/// can take and formats in place; once the buffer has grown to its working size,
/// formatting allocates nothing. Keep one and `removeAll()` it between lines.
public struct JSONLine: Sendable {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes written so far.
    public var count: Int { bytes.count }

    /// Makes room for at least `minimumCapacity` bytes in all.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        bytes.reserveCapacity(minimumCapacity)
    }

    /// Empties the buffer, keeping its memory.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Runs `body` on a formatter over room for `bound` more bytes, and keeps what it writes.
    /// `body` must write at most `bound` bytes.
    public mutating func format(bound: Int, _ body: (inout JSONFormatter) -> Void) {
        // Formatted in scratch room (on the stack when it fits) and copied once: padding the
        // array with `bound` zeros and trimming them afterwards went through an element-by-element
        // append that took more samples than the formatting itself when labels were written.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bound, 1)) { scratch in
            var formatter = JSONFormatter(scratch.baseAddress!)
            body(&formatter)
            precondition(formatter.count <= bound, "JSONLine.format wrote past its bound")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<formatter.count]))
        }
    }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Copies bytes that are already valid JSON.
    public mutating func raw(_ other: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: other)
    }

    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// See `JSONFormatter.integer(_:)`.
    public mutating func integer(_ value: Int64) {
        format(bound: JSONFormatter.numberBound) { $0.integer(value) }
    }

    /// See `JSONFormatter.unsigned(_:)`.
    public mutating func unsigned(_ value: UInt64) {
        format(bound: JSONFormatter.numberBound) { $0.unsigned(value) }
    }

    /// See `JSONFormatter.seconds(_:)`.
    public mutating func seconds(_ nanoseconds: Int64) {
        format(bound: JSONFormatter.numberBound) { $0.seconds(nanoseconds) }
    }

    /// See `JSONFormatter.decimal(_:fractionDigits:)`.
    public mutating func decimal(_ value: Int64, fractionDigits: Int) {
        format(bound: JSONFormatter.numberBound) { $0.decimal(value, fractionDigits: fractionDigits) }
    }

    /// See `JSONFormatter.real(_:)`.
    public mutating func real(_ value: Double) {
        format(bound: JSONFormatter.numberBound) { $0.real(value) }
    }

    public mutating func boolean(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// See `JSONFormatter.string(_:style:)`.
    public mutating func string(_ value: String, style: JSONStringStyle = .standard) {
        format(bound: JSONFormatter.bound(of: value)) { $0.string(value, style: style) }
    }
}

extension JSONLine {
    /// The header line of a Drain trace (see `TraceHeader.write`).
    public mutating func traceHeader(process: String?, pid: Int64?, device: String?, startNanosecondsSinceEpoch start: Int64?) {
        format(bound: TraceHeader.bound(process: process, device: device)) { line in
            TraceHeader.write(process: process, pid: pid, device: device, startNanosecondsSinceEpoch: start, to: &line)
        }
    }
}
