@testable import DrainAggregate
import DrainTrace
import Testing

/// The AVX2 form of the totals kernel against the portable one, bit for bit: every bank must
/// see the same adds in the same order.
@Suite struct CategoryTotalsKernelTests {
    /// Totals of `energy` by `category` over `range`, with the banked loop in AVX2 or not.
    func totals(_ energy: [Float], _ category: [UInt8], _ range: Range<Int>, vector: Bool) -> [UInt64] {
        var totals = [Double](repeating: 0, count: EnergyCategory.count)
        energy.withUnsafeBufferPointer { energy in
            category.withUnsafeBufferPointer { category in
                totals.withUnsafeMutableBufferPointer { totals in
                    CategoryTotalsKernel.accumulate(
                        energy: energy.baseAddress!, category: category.baseAddress!, range: range, into: totals.baseAddress!,
                        vector: vector)
                }
            }
        }
        return totals.map(\.bitPattern)
    }

    @Test(.enabled(if: CategoryTotalsKernel.usesAVX2, "the processor has no AVX2"), arguments: [0, 1, 2, 3])
    func theAVX2LoopGivesThePortableTotalsBitForBit(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = 10_000 + Int(random.next() % 1_000)
        // Energies over many magnitudes, zeros among them; category bytes of any value (7 and
        // above are taken modulo 8, and 7 is not summed).
        let energy = (0..<count).map { _ -> Float in
            let draw = random.next()
            if draw % 13 == 0 { return 0 }
            return Float(bitPattern: UInt32(truncatingIfNeeded: draw >> 32) & 0x3FFF_FFFF)
        }
        let category = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() % (seed == 3 ? 256 : 7)) }
        for range in [0..<count, 0..<64, 5..<count - 3, 1_000..<1_301, 17..<17 + 8 * 97] {
            #expect(totals(energy, category, range, vector: true) == totals(energy, category, range, vector: false), "range \(range)")
        }
    }

    @Test(.enabled(if: CategoryTotalsKernel.usesAVX2, "the processor has no AVX2"))
    func aNaNOrAnInfinityStaysInItsOwnCategory() {
        var energy = [Float](repeating: 0.25, count: 512)
        var category = (0..<512).map { UInt8($0 % 7) }
        energy[100] = .nan
        category[100] = 3
        energy[301] = .infinity
        category[301] = 5
        let vector = totals(energy, category, 0..<512, vector: true)
        #expect(vector == totals(energy, category, 0..<512, vector: false))
        #expect(Double(bitPattern: vector[3]).isNaN)
        #expect(Double(bitPattern: vector[5]) == .infinity)
        // Category 0 holds every seventh entry but entry 301, now category 5.
        #expect(Double(bitPattern: vector[0]) == 0.25 * Double(category.filter { $0 == 0 }.count))
        #expect(category.filter { $0 == 0 }.count == 73)
    }
}
