// The project's own plain-C interface over ICU (UAX #14 line breaks, UAX #29
// grapheme clusters, UAX #9 bidi). Swift cannot import ICU's headers directly
// (see DESIGN.md), so only these functions cross the boundary.
#ifndef TKL_CUNICODE_H
#define TKL_CUNICODE_H

#include <stdint.h>

/// Line break opportunities (UAX #14) in UTF-16 `text`, using ICU's rules for `locale`
/// ("zh", "ja", or "" for the root rules). Writes each break offset (1...length) to
/// `offsets`. Returns the number written, or -1 when ICU fails or `capacity` is too small.
int32_t tkl_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                        int32_t *offsets, int32_t capacity);

/// The same from ICU's line-break iterator over the whole text (tkl_line_breaks shows it
/// runs of ASCII letters and of ideographs shortened); for tests.
int32_t tkl_line_breaks_icu(const uint16_t *text, int32_t length, const char *locale,
                            int32_t *offsets, int32_t capacity);

/// Grapheme cluster boundaries (UAX #29, extended) in UTF-16 `text`: every boundary
/// after the start, ending with `length`. Returns the count, or -1 on failure.
int32_t tkl_grapheme_breaks(const uint16_t *text, int32_t length,
                            int32_t *offsets, int32_t capacity);

/// Resolved embedding levels (UAX #9) of one paragraph. `paragraph_level` is 0 (LTR),
/// 1 (RTL) or -1 (from the first strong character, LTR if none). Writes `length`
/// levels. Returns the resolved paragraph level, or -1 on failure.
int32_t tkl_bidi_levels(const uint16_t *text, int32_t length, int32_t paragraph_level,
                        uint8_t *levels);

/// Visual order of `length` items with the given levels (UAX #9 rule L2):
/// `visual_to_logical[v]` is the logical index shown at visual position v.
/// Returns 0, or -1 on failure.
int32_t tkl_reorder_visual(const uint8_t *levels, int32_t length, int32_t *visual_to_logical);

/// The UAX #9 bidi class of a code point (ICU's UCharDirection numbering).
int32_t tkl_bidi_class(uint32_t code_point);

/// 1 when the code point has the Emoji_Presentation property (UTS #51).
int32_t tkl_is_emoji_presentation(uint32_t code_point);

/// 1 when the code point has the Extended_Pictographic property (UTS #51).
int32_t tkl_is_extended_pictographic(uint32_t code_point);

/// The general category of a code point (ICU's UCharCategory numbering).
int32_t tkl_general_category(uint32_t code_point);

/// The Grapheme_Cluster_Break property of a code point (UAX #29; ICU's
/// UGraphemeClusterBreak numbering: 0 Other, 1 Control, 2 CR, 3 Extend, ...).
int32_t tkl_grapheme_cluster_break(uint32_t code_point);

/// 1 when the code point stands upright in vertical text (Vertical_Orientation U, Tu or
/// Tr, UAX #50: CJK, and marks with vertical forms or alternates), 0 when it is turned
/// sideways (R: Latin, Arabic, ...).
int32_t tkl_is_upright_in_vertical(uint32_t code_point);

/// The ICU version string ("72.1").
const char *tkl_icu_version(void);

#endif
