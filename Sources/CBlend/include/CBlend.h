// The project's blending kernels in C: what Swift cannot say, one function body compiled
// for more than one instruction set (AVX2, and the target's baseline: SSE2 on every x86-64)
// and chosen by the processor at the first call. The rule is TextKitLite's `Blend.toward`;
// the Swift code that blends pixel by pixel is the reference the tests compare every kernel
// with.
#ifndef TKL_CBLEND_H
#define TKL_CBLEND_H

#include <stddef.h>
#include <stdint.h>

/// Blends ink into `rows` rows of premultiplied RGBA pixels (4 bytes a pixel, R G B A in
/// memory) by a glyph's coverage: every channel `d` of a pixel under coverage `k` becomes
/// `(d × (255 − k) + s × k + 127) / 255`, `s` being the ink's straight channel (255 for
/// alpha) and `k` the coverage times `ink[3]` / 255 (rounded the same way).
///
/// Row `r` reads `width` coverage bytes at `coverage + r × coverage_stride` and blends the
/// `width` pixels at `pixels + r × pixel_stride`; `width` is a multiple of 8 and every pixel
/// must lie in the bitmap. Eight pixels of zero coverage are skipped; a zero among others
/// leaves its pixel as it is.
void tkl_blend_rgba(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                    ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]);

typedef void (*tkl_blend_rgba_kernel)(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                                      ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]);

/// `tkl_blend_rgba` for x86-64 processors with AVX2 (call it only when `tkl_cpu_has_avx2()`),
/// and for any processor of the target: the two kernels `tkl_blend_rgba` chooses between,
/// for tests. (Elsewhere than x86-64 both are the baseline.)
void tkl_blend_rgba_avx2(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                         ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]);
void tkl_blend_rgba_baseline(uint8_t *pixels, ptrdiff_t pixel_stride, const uint8_t *coverage,
                             ptrdiff_t coverage_stride, ptrdiff_t width, ptrdiff_t rows, const uint8_t ink[4]);

/// Nonzero when this processor has AVX2.
int tkl_cpu_has_avx2(void);

#endif
