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

/// A decoded image: `pixels` holds the gray plane (width × height bytes, row-major)
/// followed by the alpha plane of the same size; free it with `tkl_png_free`.
typedef struct {
    uint32_t width;
    uint32_t height;
    uint8_t *pixels;
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
/// alpha. RGB becomes Rec. 601 luma of the encoded values, (19595 R + 38470 G + 7471 B +
/// 32768) >> 16; palettes and tRNS are expanded; 16-bit samples are scaled to 8 bits
/// (libpng's png_set_scale_16); no gamma correction. Sets width and height on
/// success, and from IHDR for TKL_PNG_TOO_LARGE. Every chunk's length is checked against
/// the data before libpng reads it; no side may exceed `max_pixels`; libpng buffers or
/// inflates at most TKL_PNG_CHUNK_MALLOC_MAX bytes a chunk, and skips text, ICC, sPLT, eXIf
/// and tIME chunks unread. `pixels` is NULL unless the result is TKL_PNG_OK.
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

/// Frees what `tkl_png_decode` or `tkl_png_encode` allocated.
void tkl_png_free(void *pointer);

#endif
