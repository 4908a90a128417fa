// The project's own plain-C interface over libpng. libpng reports errors by longjmp, which
// must never cross a Swift frame, so every libpng call happens inside these functions,
// under their own setjmp, and comes back as a code and a message.
#ifndef TKL_CPNG_H
#define TKL_CPNG_H

#include <stddef.h>
#include <stdint.h>

/// How a call ended.
typedef enum {
    TKL_PNG_OK = 0,
    /// The data does not start with the PNG signature.
    TKL_PNG_NOT_PNG = 1,
    /// The data ends before the image does.
    TKL_PNG_TRUNCATED = 2,
    /// libpng refused the data (bad CRC, bad zlib stream, invalid header); see the message.
    TKL_PNG_CORRUPT = 3,
    /// width × height exceeds the bound (checked from IHDR, before allocating).
    TKL_PNG_TOO_LARGE = 4,
    /// malloc failed.
    TKL_PNG_NO_MEMORY = 5,
    /// A chunk's length runs past the end of the data (checked for every chunk before
    /// libpng reads any): `chunk`, `chunk_length` and `chunk_follow` say which and by how much.
    TKL_PNG_CHUNK_PAST_END = 6,
} tkl_png_code;

/// The largest chunk libpng may buffer or inflate (png_set_chunk_malloc_max): 1 MB.
#define TKL_PNG_CHUNK_MALLOC_MAX (1u << 20)
/// The most ancillary chunks libpng may keep (png_set_chunk_cache_max).
#define TKL_PNG_CHUNK_CACHE_MAX 128u

/// A decoded image: `pixels` holds the gray plane (width × height bytes, row-major), the
/// alpha plane of the same size and, when `has_rgb` is nonzero, the RGB plane (width ×
/// height × 3 bytes: R, G, B of each pixel, row-major, straight, not premultiplied); free it
/// with `tkl_png_free`.
typedef struct {
    uint32_t width;
    uint32_t height;
    uint8_t *pixels;
    /// Nonzero when the PNG is in color (color type 2, 3 or 6): `pixels` ends with the RGB
    /// plane. Zero for gray PNGs (color types 0 and 4).
    int has_rgb;
    /// Why the call failed, in libpng's words where it has some; "" on success.
    char message[200];
    /// For TKL_PNG_CHUNK_PAST_END: the chunk's type (printable ASCII, "?" for other bytes),
    /// the length it declares and the bytes that follow its header (its data and CRC need
    /// `chunk_length` + 4).
    char chunk[5];
    uint32_t chunk_length;
    size_t chunk_follow;
} tkl_png_image;

/// Decodes a PNG of any color type, bit depth and interlacing to 8-bit gray and 8-bit
/// alpha, and a color PNG (RGB, RGBA, palette) also to 8-bit RGB, in one pass of libpng.
/// Palettes and tRNS are expanded; 16-bit samples are scaled to 8 bits (libpng's
/// png_set_scale_16); no gamma correction. The gray of a color pixel is the Rec. 601 luma
/// of its 8-bit R, G, B: (19595 R + 38470 G + 7471 B + 32768) >> 16. Sets width and height
/// on success, and from IHDR for TKL_PNG_TOO_LARGE. Every chunk's length is checked against
/// the data before libpng reads it; no side may exceed `max_pixels`; libpng buffers or
/// inflates at most TKL_PNG_CHUNK_MALLOC_MAX bytes a chunk, and skips text, ICC, sPLT, eXIf
/// and tIME chunks unread. `pixels` is NULL unless the result is TKL_PNG_OK.
///
/// Memory: `pixels` takes 2 bytes a pixel for a gray PNG and 5 for a color one; an
/// interlaced image also holds all its decoded rows (up to 4 bytes a pixel) until the last
/// pass, a progressive one a single row. With width × height ≤ `max_pixels` (checked from
/// IHDR before libpng reads on), that is at most 9 × `max_pixels` bytes besides libpng's
/// own; an image whose buffers could not be counted in a size_t is TKL_PNG_TOO_LARGE.
tkl_png_code tkl_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                            tkl_png_image *image);

/// Encoded PNG bytes (`size` of them); free `bytes` with `tkl_png_free`.
typedef struct {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    char message[200];
} tkl_png_output;

/// Encodes an 8-bit gray image (PNG color type 0), or gray and alpha (color type 4) when
/// `alpha` is not NULL; each plane is width × height bytes, row-major. No ancillary chunks,
/// so equal pixels give equal bytes. `output->bytes` is NULL unless the result is TKL_PNG_OK.
tkl_png_code tkl_png_encode(const uint8_t *gray, const uint8_t *alpha, uint32_t width,
                            uint32_t height, tkl_png_output *output);

/// Encodes an 8-bit color image: RGB (PNG color type 2), or RGB and alpha (color type 6)
/// when `alpha` is not NULL. `rgb` is width × height × 3 bytes (R, G, B of each pixel,
/// row-major), `alpha` width × height bytes; the color is straight (not premultiplied), as
/// PNG stores it. No ancillary chunks. `output->bytes` is NULL unless the result is TKL_PNG_OK.
tkl_png_code tkl_png_encode_rgb(const uint8_t *rgb, const uint8_t *alpha, uint32_t width,
                                uint32_t height, tkl_png_output *output);

/// Encodes premultiplied RGBA8 (`rgba`: width × height × 4 bytes, R, G, B, A of each
/// pixel, row-major) as PNG color type 6 when `keep_alpha` is nonzero, its color
/// unpremultiplied: c' = (c × 255 + a / 2) / a (at most 255), and 0, 0, 0, 0 where a = 0.
/// When `keep_alpha` is zero (the caller knows every alpha is 255), color type 2 with the
/// R, G, B bytes as they are: exact for opaque pixels, and for others the color as drawn
/// over black. No ancillary chunks. `output->bytes` is NULL unless the result is TKL_PNG_OK.
tkl_png_code tkl_png_encode_premultiplied(const uint8_t *rgba, uint32_t width, uint32_t height,
                                          int keep_alpha, tkl_png_output *output);

/// Frees what `tkl_png_decode` or an encoder allocated.
void tkl_png_free(void *pointer);

#endif
