#include "CPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// libpng's error callback must not return: it longjmps to the setjmp of the call in
// progress (decode_under_setjmp or encode_under_setjmp). Every frame between the two is C
// (libpng and the callbacks below), so the jump crosses no Swift frame. What must survive
// the jump lives in a struct owned by the caller of the setjmp function, never in that
// function's own locals (C11 7.13.2.1: those are indeterminate after the jump).

/// Where a failure is recorded before the jump: the code and the message.
typedef struct {
    tkl_png_code code;
    char *message;
    size_t message_size;
} failure;

static void set_message(failure *fail, const char *text) {
    if (fail->message_size == 0) return;
    strncpy(fail->message, text, fail->message_size - 1);
    fail->message[fail->message_size - 1] = '\0';
}

static void on_error(png_structp png, png_const_charp text) {
    failure *fail = png_get_error_ptr(png);
    // A code set by a callback (truncation, memory) wins over libpng's generic one.
    if (fail->code == TKL_PNG_OK) fail->code = TKL_PNG_CORRUPT;
    if (fail->message[0] == '\0') set_message(fail, text);
    png_longjmp(png, 1);
}

// Warnings (a bad CRC in an ancillary chunk, an unknown chunk) are ignored: libpng's
// default prints them on stderr.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

// MARK: Decoding

typedef struct {
    failure fail;
    const uint8_t *data;
    size_t size;
    size_t offset;
    png_structp png;
    png_infop info;
    uint32_t width;
    uint32_t height;
    int channels;
    int has_rgb;
    uint64_t max_pixels;
    uint8_t *rows;
    uint8_t *pixels;
} decoder;

static void read_bytes(png_structp png, png_bytep out, size_t count) {
    decoder *d = png_get_io_ptr(png);
    if (count > d->size - d->offset) {
        d->fail.code = TKL_PNG_TRUNCATED;
        set_message(&d->fail, "the data ends before the image does");
        png_error(png, "truncated");
    }
    memcpy(out, d->data + d->offset, count);
    d->offset += count;
}

static uint8_t luma(uint8_t r, uint8_t g, uint8_t b) {
    // Rec. 601: 0.299, 0.587, 0.114 in 1/65536 (the three sum to 65536, so gray stays gray).
    return (uint8_t)((19595u * r + 38470u * g + 7471u * b + 32768u) >> 16);
}

/// Converts one row of 8-bit samples (1 to 4 channels) into row `y` of the planes: gray and
/// alpha, and for a color image (3 or 4 channels) RGB, from which the gray is derived.
static void convert_row(decoder *d, const uint8_t *row, uint32_t y) {
    size_t w = d->width, count = (size_t)d->width * d->height;
    uint8_t *gray = d->pixels + (size_t)y * w;
    uint8_t *alpha = d->pixels + count + (size_t)y * w;
    uint8_t *rgb = d->pixels + 2 * count + 3 * (size_t)y * w;
    switch (d->channels) {
    case 1:
        memcpy(gray, row, w);
        memset(alpha, 255, w);
        break;
    case 2:
        for (size_t x = 0; x < w; x++) {
            gray[x] = row[2 * x];
            alpha[x] = row[2 * x + 1];
        }
        break;
    case 3:
        memcpy(rgb, row, 3 * w);
        for (size_t x = 0; x < w; x++) gray[x] = luma(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
        memset(alpha, 255, w);
        break;
    default:
        for (size_t x = 0; x < w; x++) {
            rgb[3 * x] = row[4 * x];
            rgb[3 * x + 1] = row[4 * x + 1];
            rgb[3 * x + 2] = row[4 * x + 2];
            gray[x] = luma(row[4 * x], row[4 * x + 1], row[4 * x + 2]);
            alpha[x] = row[4 * x + 3];
        }
        break;
    }
}

static tkl_png_code decode_under_setjmp(decoder *d) {
    if (setjmp(png_jmpbuf(d->png))) return d->fail.code;
    png_set_read_fn(d->png, d, read_bytes);
    // The pixel bound is the caller's (checked before), and no side can exceed it: that is
    // libpng's own bound a side (its default is 1,000,000 pixels).
    png_uint_32 side = d->max_pixels < PNG_UINT_31_MAX ? (png_uint_32)d->max_pixels : PNG_UINT_31_MAX;
    png_set_user_limits(d->png, side, side);
    png_set_chunk_malloc_max(d->png, TKL_PNG_CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(d->png, TKL_PNG_CHUNK_CACHE_MAX);
    // Text, ICC profiles, suggested palettes, EXIF and time stamps are not used: skipped
    // unread (never buffered nor inflated), as unknown ancillary chunks are.
    static const png_byte unused[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0eXIf\0tIME\0";
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, unused, (int)(sizeof unused / 5));
    png_read_info(d->png, d->info);
    d->width = png_get_image_width(d->png, d->info);
    d->height = png_get_image_height(d->png, d->info);

    png_set_expand(d->png);    // palette to RGB, gray below 8 bits to 8, tRNS to alpha
    png_set_scale_16(d->png);  // 16 to 8 bits, rounded to the nearest (v / 257)
    int passes = png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    d->channels = png_get_channels(d->png, d->info);
    d->has_rgb = d->channels >= 3;
    size_t row_bytes = png_get_rowbytes(d->png, d->info);

    // Gray and alpha, and RGB for color: 2 or 5 bytes a pixel. An interlaced image fills
    // every row in several passes, so it needs all rows at once; otherwise one row at a time
    // is enough. No product overflows: IHDR's width × height is at most SIZE_MAX / 9.
    size_t count = (size_t)d->width * d->height;
    size_t per_pixel = d->has_rgb ? 5 : 2;
    d->pixels = malloc(per_pixel * count);
    d->rows = malloc(passes > 1 ? row_bytes * d->height : row_bytes);
    if (d->pixels == NULL || d->rows == NULL) return TKL_PNG_NO_MEMORY;
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < d->height; y++) {
            uint8_t *row = passes > 1 ? d->rows + (size_t)y * row_bytes : d->rows;
            png_read_row(d->png, row, NULL);
            if (passes == 1) convert_row(d, row, y);
        }
    }
    if (passes > 1) {
        for (uint32_t y = 0; y < d->height; y++) convert_row(d, d->rows + (size_t)y * row_bytes, y);
    }
    png_read_end(d->png, NULL);  // the chunks after the image, to IEND: catches truncation
    return TKL_PNG_OK;
}

static uint32_t read_u32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

/// Checks that every chunk up to IEND fits in the data before libpng reads any: libpng 1.6
/// allocates a text chunk's declared length (up to 2 GB) before reading its bytes, and past
/// its chunk limit it only warns. Data that ends before IEND with no chunk cut short is left
/// to libpng, which reports what is missing.
static tkl_png_code check_chunk_lengths(const uint8_t *data, size_t size, tkl_png_image *image) {
    size_t offset = 8;
    while (offset < size) {
        if (size - offset < 8) {
            strcpy(image->message, "the data ends inside a chunk header");
            return TKL_PNG_TRUNCATED;
        }
        uint32_t length = read_u32(data + offset);
        size_t follow = size - offset - 8;
        if ((uint64_t)length + 4 > follow) {
            memcpy(image->chunk, data + offset + 4, 4);
            image->chunk[4] = '\0';
            for (int i = 0; i < 4; i++) {
                if (image->chunk[i] < 0x21 || image->chunk[i] > 0x7E) image->chunk[i] = '?';
            }
            image->chunk_length = length;
            image->chunk_follow = follow;
            return TKL_PNG_CHUNK_PAST_END;
        }
        if (memcmp(data + offset + 4, "IEND", 4) == 0) break;
        offset += 12 + (size_t)length;
    }
    return TKL_PNG_OK;
}

tkl_png_code tkl_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                            tkl_png_image *image) {
    memset(image, 0, sizeof *image);
    size_t signature = size < 8 ? size : 8;
    if (size == 0 || png_sig_cmp(data, 0, signature) != 0) return TKL_PNG_NOT_PNG;
    if (size < 8) {
        strcpy(image->message, "the data ends inside the PNG signature");
        return TKL_PNG_TRUNCATED;
    }
    // The pixel bound is checked from IHDR (the first chunk, or libpng refuses the file)
    // before libpng reads on: a file that claims a huge size is too large whatever follows,
    // and so is one whose buffers (at most 9 bytes a pixel: 5 of planes for color, 4 of
    // interlaced rows) could not be counted in a size_t.
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        image->width = read_u32(data + 16);
        image->height = read_u32(data + 20);
        uint64_t count = (uint64_t)image->width * image->height;
        if (count > max_pixels || count > SIZE_MAX / 9) return TKL_PNG_TOO_LARGE;
    }
    tkl_png_code chunks = check_chunk_lengths(data, size, image);
    if (chunks != TKL_PNG_OK) return chunks;
    decoder d = {
        .fail = {.code = TKL_PNG_OK, .message = image->message, .message_size = sizeof image->message},
        .data = data,
        .size = size,
        .max_pixels = max_pixels,
    };
    d.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &d.fail, on_error, on_warning);
    if (d.png == NULL) return TKL_PNG_NO_MEMORY;
    d.info = png_create_info_struct(d.png);
    tkl_png_code code = d.info == NULL ? TKL_PNG_NO_MEMORY : decode_under_setjmp(&d);
    png_destroy_read_struct(&d.png, &d.info, NULL);
    free(d.rows);
    if (code == TKL_PNG_OK) {
        image->width = d.width;
        image->height = d.height;
        image->pixels = d.pixels;
        image->has_rgb = d.has_rgb;
    } else {
        free(d.pixels);
    }
    return code;
}

// MARK: Encoding

typedef struct {
    failure fail;
    png_structp png;
    png_infop info;
    uint8_t *row;
    tkl_png_output *output;
} encoder;

static void write_bytes(png_structp png, png_bytep data, size_t count) {
    encoder *e = png_get_io_ptr(png);
    tkl_png_output *out = e->output;
    if (count > out->capacity - out->size) {
        size_t capacity = out->capacity < 4096 ? 4096 : out->capacity;
        while (capacity - out->size < count) {
            if (capacity > SIZE_MAX / 2) capacity = out->size + count; else capacity *= 2;
        }
        uint8_t *bytes = realloc(out->bytes, capacity);
        if (bytes == NULL) {
            e->fail.code = TKL_PNG_NO_MEMORY;
            png_error(png, "out of memory");
        }
        out->bytes = bytes;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->size, data, count);
    out->size += count;
}

static void flush_bytes(png_structp png) { (void)png; }

/// What an encoder writes: the PNG color type and samples a pixel, and how one row of
/// those samples is made from the caller's pixels.
typedef struct source {
    int color_type;
    size_t channels;
    uint32_t width;
    uint32_t height;
    /// Fills `row` (width × channels bytes) with row `y`.
    void (*fill)(const struct source *source, uint32_t y, uint8_t *row);
    /// Color samples: gray (1 a pixel), RGB (3) or premultiplied RGBA (4), row-major.
    const uint8_t *color;
    /// The alpha plane of `color`, or NULL (premultiplied RGBA has its alpha inside).
    const uint8_t *alpha;
    /// Color images are written at zlib level 3 without row filters: on the sample feed's
    /// cells, 3.1× faster than libpng's defaults (level 6, adaptive filters) and 12% smaller
    /// (flat backgrounds compress as well unfiltered, and text edges do not gain from
    /// filters). Gray images keep libpng's defaults: their bytes stay what they always were.
    int fast;
} source;

/// Planes as PNG stores them: the color samples (gray or RGB) of each pixel, then its alpha
/// when there is an alpha plane.
static void fill_planes(const source *s, uint32_t y, uint8_t *row) {
    size_t w = s->width, color_channels = s->alpha ? s->channels - 1 : s->channels;
    const uint8_t *color = s->color + (size_t)y * w * color_channels;
    if (s->alpha == NULL) {
        memcpy(row, color, w * color_channels);
        return;
    }
    const uint8_t *alpha = s->alpha + (size_t)y * w;
    for (size_t x = 0; x < w; x++) {
        for (size_t c = 0; c < color_channels; c++) row[x * s->channels + c] = color[x * color_channels + c];
        row[x * s->channels + color_channels] = alpha[x];
    }
}

/// Premultiplied RGBA as straight RGBA: c' = (c × 255 + a / 2) / a, at most 255; 0 where a = 0.
static void fill_unpremultiplied(const source *s, uint32_t y, uint8_t *row) {
    const uint8_t *rgba = s->color + (size_t)y * s->width * 4;
    for (size_t i = 0; i < 4 * (size_t)s->width; i += 4) {
        unsigned a = rgba[i + 3];
        for (size_t c = 0; c < 3; c++) {
            unsigned value = a == 0 ? 0 : (rgba[i + c] * 255u + a / 2) / a;
            row[i + c] = (uint8_t)(value > 255 ? 255 : value);
        }
        row[i + 3] = (uint8_t)a;
    }
}

/// Premultiplied RGBA without its alpha: the R, G, B bytes as they are. Each pixel is copied
/// whole, its alpha overwritten by the next pixel's red (the row has a spare byte: see
/// `encode_under_setjmp`).
static void fill_premultiplied_rgb(const source *s, uint32_t y, uint8_t *row) {
    const uint8_t *rgba = s->color + (size_t)y * s->width * 4;
    for (size_t x = 0; x < s->width; x++) memcpy(row + 3 * x, rgba + 4 * x, 4);
}

static tkl_png_code encode_under_setjmp(encoder *e, const source *s) {
    if (setjmp(png_jmpbuf(e->png))) return e->fail.code;
    png_set_write_fn(e->png, e, write_bytes, flush_bytes);
    png_set_IHDR(e->png, e->info, s->width, s->height, 8, s->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (s->fast) {
        png_set_compression_level(e->png, 3);
        png_set_filter(e->png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    }
    png_write_info(e->png, e->info);
    e->row = malloc(s->channels * (size_t)s->width + 1);  // + 1: fill_premultiplied_rgb's last pixel
    if (e->row == NULL) return TKL_PNG_NO_MEMORY;
    for (uint32_t y = 0; y < s->height; y++) {
        s->fill(s, y, e->row);
        png_write_row(e->png, e->row);
    }
    png_write_end(e->png, NULL);
    return TKL_PNG_OK;
}

/// Encodes what `s` describes into `output`: the one path of every encoder.
static tkl_png_code encode(const source *s, tkl_png_output *output) {
    memset(output, 0, sizeof *output);
    encoder e = {
        .fail = {.code = TKL_PNG_OK, .message = output->message, .message_size = sizeof output->message},
        .output = output,
    };
    e.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &e.fail, on_error, on_warning);
    if (e.png == NULL) return TKL_PNG_NO_MEMORY;
    e.info = png_create_info_struct(e.png);
    tkl_png_code code = e.info == NULL ? TKL_PNG_NO_MEMORY : encode_under_setjmp(&e, s);
    png_destroy_write_struct(&e.png, &e.info);
    free(e.row);
    if (code != TKL_PNG_OK) {
        free(output->bytes);
        output->bytes = NULL;
        output->size = 0;
        output->capacity = 0;
    }
    return code;
}

/// Encodes straight planes: `color` of 1 (gray) or 3 (RGB) samples a pixel, and `alpha` or NULL.
static tkl_png_code encode_planes(const uint8_t *color, size_t color_channels, const uint8_t *alpha,
                                  uint32_t width, uint32_t height, tkl_png_output *output) {
    source s = {
        .color_type = (color_channels == 3 ? PNG_COLOR_MASK_COLOR : 0) | (alpha ? PNG_COLOR_MASK_ALPHA : 0),
        .channels = color_channels + (alpha ? 1 : 0),
        .width = width, .height = height, .fill = fill_planes, .color = color, .alpha = alpha, .fast = color_channels == 3,
    };
    return encode(&s, output);
}

tkl_png_code tkl_png_encode(const uint8_t *gray, const uint8_t *alpha, uint32_t width,
                            uint32_t height, tkl_png_output *output) {
    return encode_planes(gray, 1, alpha, width, height, output);
}

tkl_png_code tkl_png_encode_rgb(const uint8_t *rgb, const uint8_t *alpha, uint32_t width,
                                uint32_t height, tkl_png_output *output) {
    return encode_planes(rgb, 3, alpha, width, height, output);
}

tkl_png_code tkl_png_encode_premultiplied(const uint8_t *rgba, uint32_t width, uint32_t height,
                                          int keep_alpha, tkl_png_output *output) {
    source s = {
        .color_type = keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
        .channels = keep_alpha ? 4 : 3,
        .width = width, .height = height,
        .fill = keep_alpha ? fill_unpremultiplied : fill_premultiplied_rgb,
        .color = rgba,
        .fast = 1,
    };
    return encode(&s, output);
}

void tkl_png_free(void *pointer) { free(pointer); }
