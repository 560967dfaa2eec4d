#ifndef DRAIN_C_SIMD_KERNELS_H
#define DRAIN_C_SIMD_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// The categories `drain_category_banks_avx2` sums: `EnergyCategory.count`.
#define DRAIN_SUMMED_CATEGORIES 7

/// Whether this processor and its operating system run AVX2 code: CPUID for AVX and AVX2, and
/// XGETBV for the YMM registers' state being saved. The answer cannot change while the process
/// runs; ask once.
int drain_cpu_has_avx2(void);

/// The banked loop of `CategoryTotalsKernel.accumulate` in AVX2, with the same sums bit for bit.
///
/// Entry `i` is added to bank `i mod 8` of its category (`category[i] & 7`; categories from
/// `DRAIN_SUMMED_CATEGORIES` on are not summed), in entry order, in `Float`; at the end of every block of `block_length` entries the
/// banks are widened and added to `sums[category]` in bank order, then cleared. Eight entries
/// are taken at once: lane `j` of category `c`'s register is bank `j` of `c`, and each entry's
/// energy is masked into its category's register. A lane masked out adds +0.0, which leaves a
/// bank unchanged (a bank starts at +0.0 and never holds -0.0), so every bank sees exactly the
/// adds of the portable loop in the same order.
///
/// Runs from `index` while at least 8 entries are left before `end`, and returns the index it
/// stopped at. `sums` holds 8 doubles. Call only when `drain_cpu_has_avx2()` is true.
ptrdiff_t drain_category_banks_avx2(
    const float *energy, const uint8_t *category, ptrdiff_t index, ptrdiff_t end, ptrdiff_t block_length, double *sums);

#endif
