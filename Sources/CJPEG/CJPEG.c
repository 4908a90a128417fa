#include "CJPEG.h"

#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// libjpeg's error_exit must not return: on_error longjmps to the setjmp of the call in
// progress (header_under_setjmp or decode_under_setjmp). Every frame between the two is C
// (libjpeg and the callbacks below), so the jump crosses no Swift frame. What must survive
// the jump lives in a `decoder` owned by the caller of the setjmp function, never in that
// function's own locals (C11 7.13.2.1: those are indeterminate after the jump).

/// libjpeg's error manager first (libjpeg hands the callbacks `cinfo->err`, a pointer to
/// it), then where to jump and what to report.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    tkl_jpeg_code code;
    char *message;
    size_t message_size;
} failure;

static void set_message(failure *fail, const char *text) {
    if (fail->message_size == 0 || fail->message[0] != '\0') return;
    strncpy(fail->message, text, fail->message_size - 1);
    fail->message[fail->message_size - 1] = '\0';
}

/// Records `code` (unless a code is recorded already) and libjpeg's message for the
/// message code in `cinfo->err`, then jumps back to the setjmp.
static void fail_with(j_common_ptr cinfo, tkl_jpeg_code code) {
    failure *fail = (failure *)cinfo->err;
    if (fail->code == TKL_JPEG_OK) fail->code = code;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    set_message(fail, text);
    longjmp(fail->jump, 1);
}

static void on_error(j_common_ptr cinfo) {
    switch (cinfo->err->msg_code) {
    case JERR_IMAGE_TOO_BIG: fail_with(cinfo, TKL_JPEG_TOO_LARGE); break;
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE: fail_with(cinfo, TKL_JPEG_NO_MEMORY); break;
    case JERR_INPUT_EMPTY: fail_with(cinfo, TKL_JPEG_TRUNCATED); break;
    default: fail_with(cinfo, TKL_JPEG_CORRUPT); break;
    }
}

// libjpeg only warns about a premature end (JWRN_JPEG_EOF: its source then inserts an EOI
// and the rest of the image comes out gray) and about corrupt entropy-coded data (bad
// Huffman codes, data segments cut short): the decoder goes on and returns garbage. Here
// every such warning is an error. Warnings about data the decoder does not use (an unknown
// JFIF revision, a bad ICC marker) are ignored; trace messages (level ≥ 0) too.
static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    int code = cinfo->err->msg_code;
    if (code == JWRN_JFIF_MAJOR || code == JWRN_BOGUS_ICC) return;
    fail_with(cinfo, code == JWRN_JPEG_EOF ? TKL_JPEG_TRUNCATED : TKL_JPEG_CORRUPT);
}

// Called by libjpeg between passes and scans: a progressive JPEG with thousands of tiny
// scans (a "scan bomb") would otherwise make libjpeg pass over its whole coefficient
// buffer once per scan. libjpeg-turbo documents this mitigation (turbojpeg.c does it).
static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    if ((unsigned)((j_decompress_ptr)cinfo)->input_scan_number <= TKL_JPEG_MAX_SCANS) return;
    failure *fail = (failure *)cinfo->err;
    fail->code = TKL_JPEG_CORRUPT;
    snprintf(fail->message, fail->message_size, "the image has more than %u scans", TKL_JPEG_MAX_SCANS);
    longjmp(fail->jump, 1);
}

typedef struct {
    failure fail;
    struct jpeg_decompress_struct cinfo;
    struct jpeg_progress_mgr progress;
    int created;
    uint8_t *row;
    uint8_t *stored;
    uint8_t *pixels;
} decoder;

// MARK: EXIF

static uint32_t read16(const uint8_t *p, int big) {
    return big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static uint32_t read32(const uint8_t *p, int big) {
    return big ? read16(p, 1) << 16 | read16(p + 2, 1) : read16(p + 2, 0) << 16 | read16(p, 0);
}

/// The orientation tag (0x0112, one SHORT) of IFD0 of a TIFF structure of `size` bytes, in
/// either byte order; 1 when it is missing or out of range, or any offset runs past `size`.
static int tiff_orientation(const uint8_t *tiff, size_t size) {
    if (size < 8) return 1;
    int big;
    if (tiff[0] == 'I' && tiff[1] == 'I') big = 0;
    else if (tiff[0] == 'M' && tiff[1] == 'M') big = 1;
    else return 1;
    if (read16(tiff + 2, big) != 42) return 1;
    size_t ifd = read32(tiff + 4, big);
    if (ifd > size || size - ifd < 2) return 1;
    size_t count = read16(tiff + ifd, big);
    for (size_t i = 0; i < count; i++) {
        size_t entry = ifd + 2 + 12 * i;
        if (entry > size || size - entry < 12) return 1;
        if (read16(tiff + entry, big) != 0x0112) continue;
        if (read16(tiff + entry + 2, big) != 3 || read32(tiff + entry + 4, big) < 1) return 1;
        uint32_t value = read16(tiff + entry + 8, big);
        return value >= 1 && value <= 8 ? (int)value : 1;
    }
    return 1;
}

/// The orientation of the first saved APP1 marker that holds EXIF ("Exif\0\0", then TIFF).
static int exif_orientation(j_decompress_ptr cinfo) {
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 6) continue;
        if (memcmp(marker->data, "Exif\0\0", 6) != 0) continue;
        return tiff_orientation(marker->data + 6, marker->data_length - 6);
    }
    return 1;
}

// MARK: Reading

/// Sets up the decompressor over the data (errors through on_error, warnings through
/// on_message, the scan bound, libjpeg's memory bound, APP1 markers saved) and reads the
/// markers up to the first scan. Must run under a setjmp of `d->fail.jump`.
static void read_header(decoder *d, const uint8_t *data, size_t size, uint64_t max_pixels,
                        tkl_jpeg_image *image) {
    d->cinfo.err = jpeg_std_error(&d->fail.pub);
    d->fail.pub.error_exit = on_error;
    d->fail.pub.emit_message = on_message;
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    // At most 12 bytes a pixel (a progressive CMYK image keeps 4 components of 2-byte
    // coefficients, padded to whole blocks) plus 32 MB of tables and row buffers.
    uint64_t bound = max_pixels > ((uint64_t)LONG_MAX - (32u << 20)) / 12 ? (uint64_t)LONG_MAX
                                                                         : 12 * max_pixels + (32u << 20);
    d->cinfo.mem->max_memory_to_use = (long)bound;
    d->progress.progress_monitor = on_progress;
    d->cinfo.progress = &d->progress;
    jpeg_mem_src(&d->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&d->cinfo, TRUE);
    image->stored_width = d->cinfo.image_width;
    image->stored_height = d->cinfo.image_height;
    image->orientation = exif_orientation(&d->cinfo);
    int swap = image->orientation >= 5;
    image->width = swap ? image->stored_height : image->stored_width;
    image->height = swap ? image->stored_width : image->stored_height;
    image->has_rgb = d->cinfo.jpeg_color_space != JCS_GRAYSCALE;
}

static tkl_jpeg_code header_under_setjmp(decoder *d, const uint8_t *data, size_t size,
                                         tkl_jpeg_image *image) {
    if (setjmp(d->fail.jump)) return d->fail.code;
    read_header(d, data, size, 0, image);
    return TKL_JPEG_OK;
}

static uint8_t luma(uint8_t r, uint8_t g, uint8_t b) {
    // Rec. 601: 0.299, 0.587, 0.114 in 1/65536, as CPNG.c computes it.
    return (uint8_t)((19595u * r + 38470u * g + 7471u * b + 32768u) >> 16);
}

/// One row of CMYK samples to RGB. `adobe`: the samples are inverted (0 is full ink), as
/// Adobe's APP14 marker says Photoshop stores them.
static void cmyk_to_rgb(const uint8_t *cmyk, uint8_t *rgb, size_t width, int adobe) {
    for (size_t x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!adobe) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgb[3 * x] = (uint8_t)((c * k + 127) / 255);
        rgb[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgb[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
    }
}

/// Copies a stored `width` × `height` image of `bpp` bytes a pixel into `out` as EXIF
/// `orientation` (2 to 8) displays it: pixel (x, y) goes to origin + x × step_x + y × step_y.
static void orient(const uint8_t *in, uint32_t width, uint32_t height, size_t bpp, int orientation,
                   uint8_t *out) {
    ptrdiff_t w = width, h = height, origin, step_x, step_y;
    ptrdiff_t row = orientation >= 5 ? h : w;  // the displayed width
    switch (orientation) {
    case 2: origin = w - 1, step_x = -1, step_y = row; break;                       // mirrored
    case 3: origin = (h - 1) * row + w - 1, step_x = -1, step_y = -row; break;     // 180°
    case 4: origin = (h - 1) * row, step_x = 1, step_y = -row; break;              // flipped
    case 5: origin = 0, step_x = row, step_y = 1; break;                           // transposed
    case 6: origin = h - 1, step_x = row, step_y = -1; break;                      // 90° clockwise
    case 7: origin = (w - 1) * row + h - 1, step_x = -row, step_y = -1; break;     // transversed
    case 8: origin = (w - 1) * row, step_x = -row, step_y = 1; break;              // 90° counter
    default: origin = 0, step_x = 1, step_y = row; break;
    }
    for (ptrdiff_t y = 0; y < h; y++) {
        const uint8_t *source = in + (size_t)y * (size_t)w * bpp;
        ptrdiff_t at = origin + y * step_y;
        if (bpp == 1) {
            for (ptrdiff_t x = 0; x < w; x++, at += step_x) out[at] = source[x];
        } else {
            for (ptrdiff_t x = 0; x < w; x++, at += step_x) memcpy(out + at * 3, source + x * 3, 3);
        }
    }
}

static tkl_jpeg_code decode_under_setjmp(decoder *d, const uint8_t *data, size_t size,
                                         uint64_t max_pixels, uint32_t min_width, uint32_t min_height,
                                         tkl_jpeg_image *image) {
    if (setjmp(d->fail.jump)) return d->fail.code;
    read_header(d, data, size, max_pixels, image);
    uint64_t count = (uint64_t)image->stored_width * image->stored_height;
    if (count > max_pixels || count > SIZE_MAX / 8) {
        snprintf(image->message, sizeof image->message, "%u×%u pixels, limit %llu",
                 image->stored_width, image->stored_height, (unsigned long long)max_pixels);
        return TKL_JPEG_TOO_LARGE;
    }
    int cmyk = d->cinfo.jpeg_color_space == JCS_CMYK || d->cinfo.jpeg_color_space == JCS_YCCK;
    d->cinfo.out_color_space = !image->has_rgb ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;

    // The smallest scale_num / 8 that still gives the size asked for (as stored: sides
    // swapped back for orientations 5 to 8).
    if (image->orientation >= 5) {
        uint32_t swap = min_width;
        min_width = min_height;
        min_height = swap;
    }
    d->cinfo.scale_denom = 8;
    d->cinfo.scale_num = 8;
    if (min_width > 0 || min_height > 0) {
        for (unsigned num = 1; num < 8; num++) {
            d->cinfo.scale_num = num;
            jpeg_calc_output_dimensions(&d->cinfo);
            if (d->cinfo.output_width >= min_width && d->cinfo.output_height >= min_height) break;
            d->cinfo.scale_num = 8;
        }
    }
    image->scale_num = (int)d->cinfo.scale_num;

    jpeg_start_decompress(&d->cinfo);
    uint32_t width = d->cinfo.output_width, height = d->cinfo.output_height;
    size_t pixels = (size_t)width * height, bpp = image->has_rgb ? 3 : 1;
    d->pixels = malloc(pixels * (image->has_rgb ? 4 : 1));
    if (d->pixels == NULL) return TKL_JPEG_NO_MEMORY;
    if (image->orientation != 1 && (d->stored = malloc(pixels * bpp)) == NULL) return TKL_JPEG_NO_MEMORY;
    if (cmyk && (d->row = malloc((size_t)width * 4)) == NULL) return TKL_JPEG_NO_MEMORY;
    uint8_t *plane = image->has_rgb ? d->pixels + pixels : d->pixels;  // the RGB or the gray plane
    uint8_t *target = image->orientation == 1 ? plane : d->stored;
    while (d->cinfo.output_scanline < height) {
        uint8_t *out = target + (size_t)d->cinfo.output_scanline * width * bpp;
        JSAMPROW row = cmyk ? d->row : out;
        if (jpeg_read_scanlines(&d->cinfo, &row, 1) != 1) {
            strcpy(image->message, "libjpeg returned no scanline");
            return TKL_JPEG_CORRUPT;
        }
        if (cmyk) cmyk_to_rgb(d->row, out, width, d->cinfo.saw_Adobe_marker);
    }
    jpeg_finish_decompress(&d->cinfo);  // to EOI: a cut or corrupt end is an error too

    if (image->orientation != 1) orient(d->stored, width, height, bpp, image->orientation, plane);
    if (image->has_rgb) {
        for (size_t i = 0; i < pixels; i++) d->pixels[i] = luma(plane[3 * i], plane[3 * i + 1], plane[3 * i + 2]);
    }
    int swap = image->orientation >= 5;
    image->width = swap ? height : width;
    image->height = swap ? width : height;
    return TKL_JPEG_OK;
}

/// The JPEG signature: SOI (FF D8) and the FF of the marker after it.
static int is_jpeg(const uint8_t *data, size_t size) {
    return size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF;
}

/// Frees what libjpeg and the decoder hold once its setjmp function returned; the stored
/// size comes from libjpeg's frame header when libjpeg refused a side over 65,500.
static void finish(decoder *d, tkl_jpeg_code code, tkl_jpeg_image *image) {
    if (d->created) {
        if (code == TKL_JPEG_TOO_LARGE && image->stored_width == 0) {
            image->stored_width = image->width = d->cinfo.image_width;
            image->stored_height = image->height = d->cinfo.image_height;
        }
        jpeg_destroy_decompress(&d->cinfo);
    }
    free(d->row);
    free(d->stored);
}

/// Clears `image` and `d`, and points the decoder's messages at the image's.
static void prepare(decoder *d, tkl_jpeg_image *image) {
    memset(image, 0, sizeof *image);
    memset(d, 0, sizeof *d);
    d->fail.message = image->message;
    d->fail.message_size = sizeof image->message;
}

tkl_jpeg_code tkl_jpeg_header(const uint8_t *data, size_t size, tkl_jpeg_image *image) {
    decoder d;
    prepare(&d, image);
    if (!is_jpeg(data, size)) return TKL_JPEG_NOT_JPEG;
    tkl_jpeg_code code = header_under_setjmp(&d, data, size, image);
    finish(&d, code, image);
    return code;
}

tkl_jpeg_code tkl_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                              uint32_t min_width, uint32_t min_height, tkl_jpeg_image *image) {
    decoder d;
    prepare(&d, image);
    if (!is_jpeg(data, size)) return TKL_JPEG_NOT_JPEG;
    tkl_jpeg_code code = decode_under_setjmp(&d, data, size, max_pixels, min_width, min_height, image);
    finish(&d, code, image);
    if (code == TKL_JPEG_OK) {
        image->pixels = d.pixels;
    } else {
        free(d.pixels);
    }
    return code;
}

void tkl_jpeg_free(void *pointer) { free(pointer); }
