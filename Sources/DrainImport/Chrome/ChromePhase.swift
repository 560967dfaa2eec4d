/// What an event's `ph` (phase) says it is, grouped by what Drain does with it.
enum ChromePhase {
    /// `X`: a slice with its duration.
    case complete
    /// `B`, `E`: the start and end of a slice, paired per thread like a stack.
    case begin, end
    /// `i`, `I` (instant) and `R` (mark): a point in time.
    case instant
    /// `C`: numeric series at a time.
    case counter
    /// `M`: process and thread names, sort orders.
    case metadata
    /// `b`, `n`, `e` and the legacy `S`, `T`, `p`, `F`: async operations, across threads.
    case async
    /// `s`, `t`, `f`: flow arrows between slices.
    case flow
    /// `N`, `O`, `D`: object life times and snapshots.
    case object
    /// `P`: CPU profiler samples.
    case sample
    /// Any other phase (`c` clock sync, `(` `)` contexts, `V` `v` memory dumps…).
    case other

    init(_ text: UnsafeRawBufferPointer) {
        guard text.count == 1 else {
            self = .other
            return
        }
        switch text[0] {
        case UInt8(ascii: "X"): self = .complete
        case UInt8(ascii: "B"): self = .begin
        case UInt8(ascii: "E"): self = .end
        case UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "R"): self = .instant
        case UInt8(ascii: "C"): self = .counter
        case UInt8(ascii: "M"): self = .metadata
        case UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "e"), UInt8(ascii: "S"), UInt8(ascii: "T"),
            UInt8(ascii: "p"), UInt8(ascii: "F"):
            self = .async
        case UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "f"): self = .flow
        case UInt8(ascii: "N"), UInt8(ascii: "O"), UInt8(ascii: "D"): self = .object
        case UInt8(ascii: "P"): self = .sample
        default: self = .other
        }
    }
}
