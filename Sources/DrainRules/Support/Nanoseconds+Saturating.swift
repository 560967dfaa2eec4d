import DrainTrace

extension Nanoseconds {
    /// `self + span`, held at `Nanoseconds.max` instead of trapping: an instant late in a
    /// hostile trace plus a long configured span must not crash a rule.
    func plus(_ span: Nanoseconds) -> Nanoseconds {
        let (sum, overflow) = addingReportingOverflow(span)
        return overflow ? (span > 0 ? .max : .min) : sum
    }
}
