#include "CSIMDKernels.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int drain_cpu_has_avx2(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    // OSXSAVE (bit 27) and AVX (bit 28): XGETBV may be used and AVX exists.
    if ((ecx & (1u << 27)) == 0 || (ecx & (1u << 28)) == 0) return 0;
    unsigned low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    // The operating system saves the XMM (bit 1) and YMM (bit 2) registers.
    if ((low & 6u) != 6u) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & (1u << 5)) != 0;
}

__attribute__((target("avx2"))) ptrdiff_t drain_category_banks_avx2(
    const float *energy, const uint8_t *category, ptrdiff_t index, ptrdiff_t end, ptrdiff_t block_length, double *sums) {
    const __m256i slot_mask = _mm256_set1_epi32(7);
    while (end - index >= 8) {
        __m256 banks[DRAIN_SUMMED_CATEGORIES];
        for (int c = 0; c < DRAIN_SUMMED_CATEGORIES; c++) banks[c] = _mm256_setzero_ps();
        ptrdiff_t whole = (end - index) & ~(ptrdiff_t)7;
        ptrdiff_t block_end = index + (block_length < whole ? block_length : whole);
        do {
            __m128i bytes = _mm_loadl_epi64((const __m128i *)(category + index));
            __m256i kinds = _mm256_and_si256(_mm256_cvtepu8_epi32(bytes), slot_mask);
            __m256 values = _mm256_loadu_ps(energy + index);
            for (int c = 0; c < DRAIN_SUMMED_CATEGORIES; c++) {
                __m256 mine = _mm256_castsi256_ps(_mm256_cmpeq_epi32(kinds, _mm256_set1_epi32(c)));
                banks[c] = _mm256_add_ps(banks[c], _mm256_and_ps(values, mine));
            }
            index += 8;
        } while (index < block_end);
        float cells[DRAIN_SUMMED_CATEGORIES][8];
        for (int c = 0; c < DRAIN_SUMMED_CATEGORIES; c++) _mm256_storeu_ps(cells[c], banks[c]);
        // Bank by bank, as the portable loop folds its rows.
        for (int bank = 0; bank < 8; bank++) {
            for (int c = 0; c < DRAIN_SUMMED_CATEGORIES; c++) sums[c] += (double)cells[c][bank];
        }
    }
    return index;
}

#else

int drain_cpu_has_avx2(void) { return 0; }

ptrdiff_t drain_category_banks_avx2(
    const float *energy, const uint8_t *category, ptrdiff_t index, ptrdiff_t end, ptrdiff_t block_length, double *sums) {
    (void)energy; (void)category; (void)end; (void)block_length; (void)sums;
    return index;
}

#endif
