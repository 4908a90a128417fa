#ifndef PANGO_PEER_H
#define PANGO_PEER_H

/// Pango + cairo doing what a feed cell's body needs, behind plain C: the peer the
/// benchmarks measure TextKitLite against (Benchmarks/pango.sh). One peer is one thread's.
typedef struct PangoPeer PangoPeer;

/// A peer that sees only `fontCount` font files (a private fontconfig configuration), lays
/// text out in `families` (a Pango family list) at `pixelSize` pixels, `width` pixels wide,
/// wrapping at words then characters (PANGO_WRAP_WORD_CHAR), `spacing` pixels between lines,
/// and at most `maxLines` lines ellipsized at the end (0: every line).
/// Returns NULL (and a reason in `error`) when a font file cannot be added.
PangoPeer *pango_peer_create(const char *const *fontFiles, int fontCount, const char *families,
                             double pixelSize, double width, double spacing, int maxLines,
                             char *error, int errorSize);

/// Lays `text` (UTF-8) out and returns its height in pixels (pango_layout_get_pixel_size);
/// `lines` receives its line count when not NULL.
int pango_peer_layout(PangoPeer *peer, const char *text, int length, int *lines);

/// Lays `text` out and draws it into a new image surface of the layout's size, as a client
/// draws a cell's body: in black into a CAIRO_FORMAT_A8 surface, or with `argb` in the light
/// feed theme's text color (#0f1419) over white into a CAIRO_FORMAT_ARGB32 one; returns a
/// checksum of the surface.
unsigned pango_peer_draw(PangoPeer *peer, const char *text, int length, int argb);

/// A layout of `text` made and laid out now, with the peer's settings: for drawing alone
/// (`pango_peer_draw_layout`), as a client draws a body laid out ahead. Free it with
/// `pango_peer_free_layout`.
void *pango_peer_prepare(PangoPeer *peer, const char *text, int length);
/// Draws a prepared layout as `pango_peer_draw` does, without laying it out: a new surface,
/// the background, `pango_cairo_show_layout`; returns a checksum of the surface.
unsigned pango_peer_draw_layout(void *layout, int argb);
void pango_peer_free_layout(void *layout);
/// Writes into `buffer` (`size` bytes) the distinct font files the runs of `text` use,
/// separated by newlines; returns how many.
int pango_peer_font_files(PangoPeer *peer, const char *text, int length, char *buffer, int size);

void pango_peer_destroy(PangoPeer *peer);

#endif
