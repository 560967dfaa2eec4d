import DrainTrace

/// The two bounds `drain-bench aggregate` sets the per-category totals against, besides the
/// plain column sum: what a kernel that adds each entry into memory can reach, and what the
/// register-only (lane-masked) form reaches on the baseline x86-64 target.
extension AggregateBenchmark {
    /// One read-modify-write of a `Float` cell per entry, cells cycling over 64 so no two
    /// neighbouring adds wait for each other, and no category read at all: the floor of any
    /// kernel that keeps its accumulators in memory, as `CategoryTotalsKernel`'s portable loop
    /// does (its only extra work is reading and splitting the category bytes). Its AVX2 loop
    /// keeps them in registers and is not held to this bound.
    static func storePerEntrySum(_ column: [Float]) -> Double {
        column.withUnsafeBufferPointer { values in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 64) { cells in
                cells.initialize(repeating: 0)
                var total = 0.0
                var start = 0
                while start < values.count {
                    let end = min(values.count, start + 4_096)
                    var index = start
                    while index < end {
                        cells[index & 63] += values[index]
                        index += 1
                    }
                    for cell in 0..<64 {
                        total += Double(cells[cell])
                        cells[cell] = 0
                    }
                    start = end
                }
                return total
            }
        }
    }

    /// Per-category totals kept in registers: for each group of four entries, each of the
    /// seven categories compares the four category values, masks the four energies and adds
    /// them into its own `SIMD4<Float>` (21 vector operations per four entries on SSE2),
    /// folded into `Double` every 4,096 entries. The same totals as `Aggregate.totals`.
    static func laneMaskedTotals(_ ledger: CostLedger) -> [Double] {
        var totals = [Double](repeating: 0, count: EnergyCategory.count)
        ledger.energy.withUnsafeBufferPointer { energy in
            ledger.category.withUnsafeBufferPointer { category in
                var start = 0
                while start + 4 <= energy.count {
                    let end = start + min(4_096, (energy.count - start) & ~3)
                    var sums = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(),
                                SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
                    var index = start
                    while index < end {
                        let values = SIMD4<Float>(energy[index], energy[index + 1], energy[index + 2], energy[index + 3])
                        let kinds = SIMD4<UInt32>(
                            UInt32(category[index]), UInt32(category[index + 1]),
                            UInt32(category[index + 2]), UInt32(category[index + 3]))
                        func masked(_ kind: UInt32) -> SIMD4<Float> {
                            values.replacing(with: 0, where: kinds .!= SIMD4<UInt32>(repeating: kind))
                        }
                        sums.0 += masked(0)
                        sums.1 += masked(1)
                        sums.2 += masked(2)
                        sums.3 += masked(3)
                        sums.4 += masked(4)
                        sums.5 += masked(5)
                        sums.6 += masked(6)
                        index += 4
                    }
                    let lanes = [sums.0, sums.1, sums.2, sums.3, sums.4, sums.5, sums.6]
                    for kind in 0..<EnergyCategory.count { totals[kind] += Double(lanes[kind].sum()) }
                    start = end
                }
                for index in start..<energy.count where Int(category[index]) < EnergyCategory.count {
                    totals[Int(category[index])] += Double(energy[index])
                }
            }
        }
        return totals
    }
}
