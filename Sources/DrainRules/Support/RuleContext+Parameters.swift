import DrainModel
import DrainTrace

extension RuleContext {
    /// A parameter in seconds as a span on the timeline's clock, clamped to
    /// `[0, Clock.longestSpanSeconds]` (NaN reads as 0).
    func span(_ parameter: RuleParameter) -> Nanoseconds {
        let seconds = self[parameter]
        guard seconds > 0 else { return 0 }
        return Clock.nanoseconds(min(seconds, Clock.longestSpanSeconds))
    }

    /// A parameter that counts events, rounded up and clamped to `[0, Int32.max]`.
    func count(_ parameter: RuleParameter) -> Int {
        let value = self[parameter]
        guard value > 0 else { return 0 }
        return Int(min(value.rounded(.up), Double(Int32.max)))
    }
}
