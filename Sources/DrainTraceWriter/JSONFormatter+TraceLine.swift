// The pieces of a Drain trace line (docs/trace-format.md), spelled from the vocabulary
// (`TraceKey`, `TraceEventType` and the value enums) so that no writer spells a name itself.

extension JSONFormatter {
    /// The most bytes `timePrefix(_:)` writes.
    public static let timePrefixBound = 6 + numberBound

    /// `{"t":SECONDS`, which opens every event line.
    @inlinable
    public mutating func timePrefix(_ nanoseconds: Int64) {
        raw(#"{"t":"#)
        seconds(nanoseconds)
    }

    /// `,"KEY":`
    @inlinable @inline(__always)
    public mutating func key(_ key: TraceKey) {
        raw(#",""#)
        raw(key.name)
        raw(#"":"#)
    }

    /// `,"type":"TYPE"`
    @inlinable @inline(__always)
    public mutating func type(_ type: TraceEventType) {
        key(.type)
        quoted(type.name)
    }

    /// `,"KEY":"SPELLING"` for an enum value's spelling.
    @inlinable @inline(__always)
    public mutating func field(_ key: TraceKey, _ spelling: StaticString) {
        self.key(key)
        quoted(spelling)
    }

    /// `,"KEY":"VALUE"` (escaped), or nothing when `value` is nil.
    @inlinable @inline(__always)
    public mutating func field(_ key: TraceKey, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    /// `,"KEY":SECONDS` for a duration in nanoseconds.
    @inlinable @inline(__always)
    public mutating func seconds(_ key: TraceKey, _ nanoseconds: Int64) {
        self.key(key)
        seconds(nanoseconds)
    }

    /// `,"KEY":INTEGER`
    @inlinable @inline(__always)
    public mutating func integer(_ key: TraceKey, _ value: Int64) {
        self.key(key)
        integer(value)
    }

    /// `,"KEY":true` or `false`.
    @inlinable @inline(__always)
    public mutating func boolean(_ key: TraceKey, _ value: Bool) {
        self.key(key)
        boolean(value)
    }

    /// `}` and the newline that ends every line.
    @inlinable @inline(__always)
    public mutating func endLine() {
        raw("}\n")
    }
}
