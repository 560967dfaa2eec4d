/// The event categories (`cat`) that `drain export --chrome` writes, which the importer
/// reads back as what they were (see docs/chrome-trace.md).
public enum ChromeTraceCategory {
    /// Slices that are Drain `cpu` events: CPU time each, not nested work to flatten.
    public static let cpu = "drain.cpu"
    /// Slices that are Drain `gpu` events.
    public static let gpu = "drain.gpu"
    /// Drain `mark` events (instants, or slices for marks with a duration).
    public static let mark = "drain.mark"
    /// What pricing derived (energy counters, radio states): skipped on import, since
    /// pricing the imported run derives it again.
    public static let priced = "drain.priced"
}

/// What an event's category makes of its slice.
enum ChromeSliceKind: UInt8 {
    /// Work on a thread: the outermost slices are CPU time, nested ones become marks.
    case cpu
    /// The same, for a category that mentions `gpu`: the outermost slices are GPU time.
    case gpu
    /// A slice of `drain.cpu`, `drain.gpu` or `drain.mark`: kept as it is.
    case drainCPU, drainGPU, drainMark

    /// The kind for a category text (nil: no `cat`).
    init(category: UnsafeRawBufferPointer?) {
        guard let category else {
            self = .cpu
            return
        }
        if category.elementsEqual(ChromeTraceCategory.cpu.utf8) {
            self = .drainCPU
        } else if category.elementsEqual(ChromeTraceCategory.gpu.utf8) {
            self = .drainGPU
        } else if category.elementsEqual(ChromeTraceCategory.mark.utf8) {
            self = .drainMark
        } else {
            self = Self.mentionsGPU(category) ? .gpu : .cpu
        }
    }

    /// Whether `gpu` occurs in the text in any case (`gpu`, `viz,gpu`, `disabled-by-default-gpu.debug`).
    private static func mentionsGPU(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.count >= 3 else { return false }
        for index in 0...(text.count - 3)
        where text[index] | 0x20 == UInt8(ascii: "g") && text[index + 1] | 0x20 == UInt8(ascii: "p")
            && text[index + 2] | 0x20 == UInt8(ascii: "u")
        {
            return true
        }
        return false
    }
}
