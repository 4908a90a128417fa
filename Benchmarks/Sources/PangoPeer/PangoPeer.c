#include "PangoPeer.h"
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct PangoPeer {
    FcConfig *config;
    PangoFontMap *fontMap;
    PangoContext *context;
    PangoLayout *layout;
};

PangoPeer *pango_peer_create(const char *const *fontFiles, int fontCount, const char *families,
                             double pixelSize, double width, double spacing, int maxLines,
                             char *error, int errorSize) {
    // A configuration of its own, empty but for the given files: Pango sees exactly the
    // fonts TextKitLite uses, whatever the machine has installed.
    FcConfig *config = FcConfigCreate();
    for (int i = 0; i < fontCount; i++) {
        if (!FcConfigAppFontAddFile(config, (const FcChar8 *)fontFiles[i])) {
            snprintf(error, errorSize, "fontconfig cannot add %s", fontFiles[i]);
            FcConfigDestroy(config);
            return NULL;
        }
    }
    PangoPeer *peer = calloc(1, sizeof *peer);
    peer->config = config;
    peer->fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(peer->fontMap), config);
    peer->context = pango_font_map_create_context(peer->fontMap);
    peer->layout = pango_layout_new(peer->context);
    PangoFontDescription *font = pango_font_description_from_string(families);
    pango_font_description_set_absolute_size(font, pixelSize * PANGO_SCALE);
    pango_layout_set_font_description(peer->layout, font);
    pango_font_description_free(font);
    pango_layout_set_width(peer->layout, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(peer->layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_spacing(peer->layout, (int)(spacing * PANGO_SCALE));
    if (maxLines > 0) {
        pango_layout_set_height(peer->layout, -maxLines);
        pango_layout_set_ellipsize(peer->layout, PANGO_ELLIPSIZE_END);
    }
    return peer;
}

int pango_peer_layout(PangoPeer *peer, const char *text, int length, int *lines) {
    pango_layout_set_text(peer->layout, text, length);
    int width = 0, height = 0;
    pango_layout_get_pixel_size(peer->layout, &width, &height);
    if (lines) *lines = pango_layout_get_line_count(peer->layout);
    return height;
}

/// A new surface of `layout`'s size, `layout` drawn into it; a checksum of its pixels.
static unsigned draw_layout(PangoLayout *layout, int argb) {
    int width = 0, height = 0;
    pango_layout_get_pixel_size(layout, &width, &height);
    cairo_surface_t *surface = cairo_image_surface_create(argb ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_A8,
                                                          pango_layout_get_width(layout) / PANGO_SCALE, height);
    cairo_t *cr = cairo_create(surface);
    if (argb) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        cairo_set_source_rgb(cr, 0x0f / 255.0, 0x14 / 255.0, 0x19 / 255.0);
    } else {
        cairo_set_source_rgba(cr, 0, 0, 0, 1);
    }
    pango_cairo_show_layout(cr, layout);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    unsigned checksum = (unsigned)height;
    if (data && height > 0) checksum += data[(height / 2) * stride + stride / 2];
    cairo_surface_destroy(surface);
    return checksum;
}

unsigned pango_peer_draw(PangoPeer *peer, const char *text, int length, int argb) {
    pango_layout_set_text(peer->layout, text, length);
    return draw_layout(peer->layout, argb);
}

void *pango_peer_prepare(PangoPeer *peer, const char *text, int length) {
    PangoLayout *layout = pango_layout_copy(peer->layout);
    pango_layout_set_text(layout, text, length);
    int width = 0, height = 0;
    pango_layout_get_pixel_size(layout, &width, &height);
    return layout;
}

unsigned pango_peer_draw_layout(void *layout, int argb) { return draw_layout(layout, argb); }

void pango_peer_free_layout(void *layout) { g_object_unref(layout); }

int pango_peer_font_files(PangoPeer *peer, const char *text, int length, char *buffer, int size) {
    pango_layout_set_text(peer->layout, text, length);
    int count = 0, used = 0;
    buffer[0] = 0;
    for (GSList *line = pango_layout_get_lines_readonly(peer->layout); line; line = line->next) {
        for (GSList *run = ((PangoLayoutLine *)line->data)->runs; run; run = run->next) {
            PangoFont *font = ((PangoGlyphItem *)run->data)->item->analysis.font;
            FcChar8 *file = NULL;
            if (!PANGO_IS_FC_FONT(font) || FcPatternGetString(PANGO_FC_FONT(font)->font_pattern, FC_FILE, 0, &file) != FcResultMatch) continue;
            if (strstr(buffer, (const char *)file)) continue;
            used += snprintf(buffer + used, used < size ? size - used : 0, "%s\n", file);
            count++;
        }
    }
    return count;
}

void pango_peer_destroy(PangoPeer *peer) {
    g_object_unref(peer->layout);
    g_object_unref(peer->context);
    g_object_unref(peer->fontMap);
    FcConfigDestroy(peer->config);
    free(peer);
}
