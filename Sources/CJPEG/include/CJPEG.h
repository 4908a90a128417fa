// The project's own plain-C interface over libjpeg (libjpeg-turbo's libjpeg API). libjpeg
// reports errors by longjmp from its error_exit, which must never cross a Swift frame, so
// every libjpeg call happens inside these functions, under their own setjmp, and comes back
// as a code and a message.
#ifndef TKL_CJPEG_H
#define TKL_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// How a call ended.
typedef enum {
    TKL_JPEG_OK = 0,
    /// The data does not start with the JPEG SOI marker (FF D8 FF).
    TKL_JPEG_NOT_JPEG = 1,
    /// The data ends before the image does (libjpeg's "Premature end of JPEG file", which
    /// libjpeg itself only warns about, filling the rest with gray).
    TKL_JPEG_TRUNCATED = 2,
    /// libjpeg refused the data, or warned that it is corrupt ("Corrupt JPEG data: bad
    /// Huffman code"), or it has more than TKL_JPEG_MAX_SCANS scans; see the message.
    TKL_JPEG_CORRUPT = 3,
    /// width × height exceeds the bound, or a side exceeds 65,500 pixels (checked after
    /// jpeg_read_header, before jpeg_start_decompress allocates anything for pixels).
    TKL_JPEG_TOO_LARGE = 4,
    /// malloc failed, or libjpeg needed more than its memory bound.
    TKL_JPEG_NO_MEMORY = 5,
} tkl_jpeg_code;

/// The most scans a JPEG may have (a progressive "scan bomb" has thousands, each of which
/// makes libjpeg pass over the whole coefficient buffer): libjpeg-turbo's documented
/// mitigation, a progress monitor that stops the decoder past this many.
#define TKL_JPEG_MAX_SCANS 1000u

/// What the header says, and, after tkl_jpeg_decode, the decoded pixels.
typedef struct {
    /// The size as stored in the frame header (SOF), before orientation and scaling.
    uint32_t stored_width;
    uint32_t stored_height;
    /// The EXIF orientation (TIFF tag 0x0112), 1 to 8; 1 when there is no EXIF, or it is
    /// broken (offsets past the APP1 marker's end), or the value is out of range.
    int orientation;
    /// The size as displayed: the stored size, its sides swapped for orientations 5 to 8;
    /// after tkl_jpeg_decode, the size of `pixels` (scaled by scale_num / 8).
    uint32_t width;
    uint32_t height;
    /// Nonzero when the image is in color (YCbCr, RGB, CMYK or YCCK); zero for grayscale.
    int has_rgb;
    /// After tkl_jpeg_decode: the gray plane (width × height bytes, row-major) and, when
    /// `has_rgb`, the RGB plane (width × height × 3 bytes: R, G, B of each pixel), with the
    /// orientation applied. The gray of a color pixel is its Rec. 601 luma,
    /// (19595 R + 38470 G + 7471 B + 32768) >> 16, as the PNG decoder computes it. NULL
    /// unless the result is TKL_JPEG_OK; free it with tkl_jpeg_free.
    uint8_t *pixels;
    /// The DCT scale used, scale_num / 8 (8: full size).
    int scale_num;
    /// Why the call failed, in libjpeg's words where it has some; "" on success.
    char message[200];
} tkl_jpeg_image;

/// Reads the markers up to the first scan (jpeg_read_header) and the EXIF orientation of
/// the first APP1 "Exif" marker; never decodes pixel data. Sets every field but `pixels`
/// and `scale_num`. TKL_JPEG_TRUNCATED when the data ends before the first scan (a caller
/// holding only the start of a file may then try again with more of it).
tkl_jpeg_code tkl_jpeg_header(const uint8_t *data, size_t size, tkl_jpeg_image *image);

/// Decodes a baseline or progressive JPEG: grayscale to a gray plane; YCbCr and RGB to RGB;
/// CMYK and YCCK to RGB (an Adobe APP14 marker means inverted CMYK, as Photoshop writes it:
/// R = C × K / 255; without it R = (255 − C) × (255 − K) / 255), and applies the EXIF
/// orientation.
///
/// Bounds: after jpeg_read_header, before anything is allocated for pixels, the stored
/// width × height must be at most `max_pixels` (TKL_JPEG_TOO_LARGE); libjpeg may use at most
/// 12 bytes a pixel of `max_pixels` plus 32 MB (`max_memory_to_use`); a progress monitor
/// stops at TKL_JPEG_MAX_SCANS scans. Every libjpeg warning about corrupt or missing data is
/// an error (TKL_JPEG_TRUNCATED or TKL_JPEG_CORRUPT): nothing decoded with gray fill or
/// garbage comes back. Benign warnings (unknown JFIF revision, bad ICC marker) are ignored.
///
/// `min_width` and `min_height` (as displayed, 0 for no need): the DCT scale is the
/// smallest scale_num / 8 whose output is at least that large in both dimensions (the full
/// size when none is); libjpeg then computes only the needed frequencies (much faster).
///
/// Memory: `pixels` takes 1 byte a pixel for gray and 4 for color, and an oriented image
/// (orientation 2 to 8) as much again while it is turned.
tkl_jpeg_code tkl_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                              uint32_t min_width, uint32_t min_height, tkl_jpeg_image *image);

/// Frees what tkl_jpeg_decode allocated (NULL is fine).
void tkl_jpeg_free(void *pointer);

#endif
