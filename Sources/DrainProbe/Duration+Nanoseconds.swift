extension Duration {
    /// Whole nanoseconds, rounded towards zero; negative durations become 0 and durations
    /// beyond `Int64.max` nanoseconds (about 292 years) become `Int64.max`, since a trace
    /// has no negative durations and no larger ones.
    var traceNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow || overflow2 ? Int64.max : max(0, total)
    }
}
