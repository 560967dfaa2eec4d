import DrainTrace

extension RuleContext {
    /// The longest span a parameter may describe, 10⁹ s (about 32 years): configuration and
    /// model values are only checked for being finite and ≥ 0, and a larger span would
    /// overflow the nanosecond clock when added to an event's time.
    static let longestSpanSeconds = 1e9

    /// A parameter in seconds as a span on the timeline's clock, clamped to
    /// `[0, longestSpanSeconds]` (NaN reads as 0).
    func span(_ name: String) -> Nanoseconds {
        let seconds = parameter(name)
        guard seconds > 0 else { return 0 }
        return Clock.nanoseconds(min(seconds, Self.longestSpanSeconds))
    }

    /// A parameter that counts events, rounded up and clamped to `[0, Int32.max]`.
    func count(_ name: String) -> Int {
        let value = parameter(name)
        guard value > 0 else { return 0 }
        return Int(min(value.rounded(.up), Double(Int32.max)))
    }
}
