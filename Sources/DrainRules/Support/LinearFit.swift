/// An ordinary least-squares line through points, with its coefficient of determination.
///
/// Computed in two passes (means, then centred sums), which keeps large values such as
/// footprints in bytes accurate: `slope = Sxy / Sxx`, `R² = Sxy² / (Sxx · Syy)`.
struct LinearFit: Equatable {
    /// Change of y per unit of x.
    var slope: Double
    /// y of the line at x = 0.
    var intercept: Double
    /// The share of the variance of y the line explains, 0…1; 1 for a constant y, which the
    /// flat line fits exactly.
    var rSquared: Double

    /// The fit of `y` on `x` (same count). `nil` with fewer than two points or when all x
    /// are equal. O(n).
    init?(x: [Double], y: [Double]) {
        precondition(x.count == y.count, "a fit needs one y per x")
        guard x.count >= 2 else { return nil }
        let count = Double(x.count)
        let meanX = x.reduce(0, +) / count
        let meanY = y.reduce(0, +) / count
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for index in x.indices {
            let dx = x[index] - meanX, dy = y[index] - meanY
            sxx += dx * dx
            sxy += dx * dy
            syy += dy * dy
        }
        guard sxx > 0 else { return nil }
        slope = sxy / sxx
        intercept = meanY - slope * meanX
        rSquared = syy > 0 ? sxy * sxy / (sxx * syy) : 1
    }
}
