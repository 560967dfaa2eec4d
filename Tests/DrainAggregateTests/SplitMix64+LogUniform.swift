import DrainTrace
import Foundation

extension SplitMix64 {
    /// A value spread evenly in log scale over `range` (both ends positive), like energies that
    /// span microjoules to joules.
    mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        pow(10, Double.random(in: log10(range.lowerBound)...log10(range.upperBound), using: &self))
    }
}
