import DrainTrace

extension Clock {
    /// The longest span a model or rule number may describe, 10⁹ s (about 32 years): model and
    /// configuration values are only checked for being finite and ≥ 0, and a larger span
    /// would overflow the nanosecond clock when added to an event's time.
    public static let longestSpanSeconds = 1e9
}
