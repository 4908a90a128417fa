#include "CBlend.h"
#include <string.h>

typedef uint8_t u8x8 __attribute__((vector_size(8)));
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint8_t u8x32 __attribute__((vector_size(32)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));

// Macros, not functions: a function taking a 256-bit vector has one ABI with AVX and
// another without.

/// n / 255 rounded, for n = a sum already holding its + 127: exact for n ≤ 255 × 255 + 127,
/// and no lane exceeds 65,535 on the way (65,407 at most).
#define DIVIDE_255(n) (((n) + 1 + ((n) >> 8)) >> 8)

/// Four pixels' channels (`u8x16`) moved toward `source` by `spread` (each pixel's coverage
/// in its four lanes).
#define TOWARD(pixels, spread, source) __extension__({ \
    u16x16 p_ = __builtin_convertvector((pixels), u16x16); \
    u16x16 n_ = p_ * (255 - (spread)) + (source) * (spread) + 127; \
    __builtin_convertvector(DIVIDE_255(n_), u8x16); \
})

// Eight pixels a step in 16-bit lanes: one 256-bit vector per four pixels with AVX2, two
// 128-bit ones with SSE2 (or NEON). One body, inlined into each kernel, so one rule.
static inline __attribute__((always_inline))
void blend_rgba(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]) {
    const u16x16 source = {ink[0], ink[1], ink[2], 255, ink[0], ink[1], ink[2], 255,
                           ink[0], ink[1], ink[2], 255, ink[0], ink[1], ink[2], 255};
    const uint16_t alpha = ink[3];
    for (ptrdiff_t row = 0; row < rows; row++) {
        const uint8_t *c = coverage + row * coverage_stride;
        uint8_t *d = pixels + row * pixel_stride;
        for (ptrdiff_t k = 0; k < width; k += 8) {
            u8x8 cover;
            memcpy(&cover, c + k, 8);
            uint64_t any;
            memcpy(&any, &cover, 8);
            if (any == 0) continue;
            u16x16 low = __builtin_convertvector(
                __builtin_shufflevector(cover, cover, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3), u16x16);
            u16x16 high = __builtin_convertvector(
                __builtin_shufflevector(cover, cover, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7), u16x16);
            if (alpha != 255) {
                low = DIVIDE_255(low * alpha + 127);
                high = DIVIDE_255(high * alpha + 127);
            }
            u8x32 under;
            memcpy(&under, d + 4 * k, 32);
            u8x16 first = TOWARD(__builtin_shufflevector(under, under, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                 low, source);
            u8x16 second = TOWARD(__builtin_shufflevector(under, under, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31),
                                  high, source);
            u8x32 blended = __builtin_shufflevector(first, second, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
            memcpy(d + 4 * k, &blended, 32);
        }
    }
}

void tkl_blend_rgba_baseline(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                             ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]) {
    blend_rgba(pixels, pixel_stride, coverage, coverage_stride, width, rows, ink);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
void tkl_blend_rgba_avx2(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                         ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]) {
    blend_rgba(pixels, pixel_stride, coverage, coverage_stride, width, rows, ink);
}

int tkl_cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
void tkl_blend_rgba_avx2(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                         ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]) {
    blend_rgba(pixels, pixel_stride, coverage, coverage_stride, width, rows, ink);
}

int tkl_cpu_has_avx2(void) { return 0; }
#endif

/// The kernel for this processor, chosen at the first call. Racing first calls store the
/// same pointer; a relaxed atomic says so to the compiler and to ThreadSanitizer.
static tkl_blend_rgba_kernel chosen;

void tkl_blend_rgba(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                    ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]) {
    tkl_blend_rgba_kernel kernel = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (!kernel) {
        kernel = tkl_cpu_has_avx2() ? tkl_blend_rgba_avx2 : tkl_blend_rgba_baseline;
        __atomic_store_n(&chosen, kernel, __ATOMIC_RELAXED);
    }
    kernel(pixels, pixel_stride, coverage, coverage_stride, width, rows, ink);
}
