import Foundation

/// A small seeded random generator (SplitMix64, Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014): the same seed gives the same data on every
/// run and platform, so a failing case can be replayed from the seed the test prints.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A value spread evenly in log scale over `range` (both ends positive), like energies that
    /// span microjoules to joules.
    mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        pow(10, Double.random(in: log10(range.lowerBound)...log10(range.upperBound), using: &self))
    }
}
