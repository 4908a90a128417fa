#include "CUnicode.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

// ICU break iterators and bidi objects are expensive to open and are not thread-safe,
// so each thread keeps its own, opened on first use and closed when the thread exits.
#define TKL_LOCALE_SLOTS 4

typedef struct {
    char locale[16];
    UBreakIterator *iterator;
} LineSlot;

// Paragraphs up to this many UTF-16 units go to the line-break iterator shortened (see
// tkl_line_breaks); the thread's scratch buffers grow to at most this size (96 KB).
#define TKL_SHORTEN_MAX 16384

typedef struct {
    LineSlot lines[TKL_LOCALE_SLOTS];
    int32_t next_slot;
    UBreakIterator *characters;
    UBiDi *bidi;
    // The shortened text and, per unit of it, its offset in the original text.
    uint16_t *short_units;
    int32_t *short_offsets;
    int32_t short_capacity;
} ThreadState;

static pthread_key_t state_key;
static pthread_once_t state_once = PTHREAD_ONCE_INIT;

static void state_destroy(void *pointer) {
    ThreadState *state = pointer;
    for (int i = 0; i < TKL_LOCALE_SLOTS; i++) {
        if (state->lines[i].iterator) ubrk_close(state->lines[i].iterator);
    }
    if (state->characters) ubrk_close(state->characters);
    if (state->bidi) ubidi_close(state->bidi);
    free(state->short_units);
    free(state->short_offsets);
    free(state);
}

static void state_key_create(void) { pthread_key_create(&state_key, state_destroy); }

static ThreadState *thread_state(void) {
    pthread_once(&state_once, state_key_create);
    ThreadState *state = pthread_getspecific(state_key);
    if (!state) {
        state = calloc(1, sizeof(ThreadState));
        if (!state) return NULL;
        pthread_setspecific(state_key, state);
    }
    return state;
}

static UBreakIterator *line_iterator(ThreadState *state, const char *locale) {
    for (int i = 0; i < TKL_LOCALE_SLOTS; i++) {
        if (state->lines[i].iterator && strcmp(state->lines[i].locale, locale) == 0) {
            return state->lines[i].iterator;
        }
    }
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_LINE, locale, NULL, 0, &status);
    if (U_FAILURE(status)) return NULL;
    LineSlot *slot = &state->lines[state->next_slot];
    state->next_slot = (state->next_slot + 1) % TKL_LOCALE_SLOTS;
    if (slot->iterator) ubrk_close(slot->iterator);
    slot->iterator = iterator;
    strncpy(slot->locale, locale, sizeof(slot->locale) - 1);
    slot->locale[sizeof(slot->locale) - 1] = 0;
    return iterator;
}

int32_t tkl_line_breaks_icu(const uint16_t *text, int32_t length, const char *locale,
                            int32_t *offsets, int32_t capacity) {
    if (length <= 0) return 0;
    ThreadState *state = thread_state();
    if (!state) return -1;
    UBreakIterator *iterator = line_iterator(state, locale ? locale : "");
    if (!iterator) return -1;
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(iterator, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    int32_t count = 0;
    for (int32_t at = ubrk_following(iterator, 0); at != UBRK_DONE; at = ubrk_next(iterator)) {
        if (count >= capacity) return -1;
        offsets[count++] = at;
    }
    // Drop the iterator's reference to the caller's buffer.
    ubrk_setText(iterator, NULL, 0, &status);
    return count;
}

// What UAX #14 decides inside a run of units of one kind, whatever surrounds the run:
// - letters: ASCII and Arabic (U+0621...U+064A, class AL) and Hebrew (U+05D0...U+05EA, class
//   HL): never a break between two (LB28);
// - CJK text: unified ideographs U+4E00...U+9FFF (class ID in every ICU locale) and the CJK
//   commas, full stops, exclamation and question marks (、 。 ， ． class CL; ！ ？ class EX, in
//   every ICU locale): a break before each ideograph after the run's first unit (LB31: no
//   rule joins ID, CL or EX to a following ID), none before the punctuation (LB13).
// That holds in ICU's root rules and in its Chinese, Japanese and Korean ones (normal and
// strict), the rules the library asks for; ICU's loose rules (a locale keyword, "@lb=loose")
// allow a break before ！ and ？, so a locale with keywords goes to the iterator whole.
static inline int is_letter(uint16_t unit) {
    return (uint16_t)((unit | 0x20) - 'a') < 26 || (uint16_t)(unit - 0x0621) <= 0x064A - 0x0621
        || (uint16_t)(unit - 0x05D0) <= 0x05EA - 0x05D0;
}
static inline int is_ideograph(uint16_t unit) { return (uint16_t)(unit - 0x4E00) < 0x5200; }
static inline int is_cjk_text(uint16_t unit) {
    return is_ideograph(unit) || unit == 0x3001 || unit == 0x3002 || unit == 0xFF0C || unit == 0xFF0E
        || unit == 0xFF01 || unit == 0xFF1F;
}

// The iterator costs per unit and per boundary it finds, and the runs above are most of
// the units (and, for Chinese, of the boundaries) of Latin and Chinese text. So a run of
// three or more units of one kind is shown to the iterator as its first and last units:
// every rule at the run's edges sees neighbours of the same classes, and the iterator's
// answer between the two is the run's own before its last unit (a break before an
// ideograph, none before the punctuation, whatever precedes it in the run). The boundaries
// inside the run are put back: none in letters, one before each inner ideograph of CJK
// text. The tests compare the result with tkl_line_breaks_icu (the iterator on the whole
// text) over random and real texts.
int32_t tkl_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                        int32_t *offsets, int32_t capacity) {
    if (length <= 0) return 0;
    if (length > TKL_SHORTEN_MAX || (locale && strchr(locale, '@'))) {
        return tkl_line_breaks_icu(text, length, locale, offsets, capacity);
    }
    ThreadState *state = thread_state();
    if (!state) return -1;
    if (state->short_capacity < length) {
        int32_t grown = length < 512 ? 512 : length;
        if (grown < state->short_capacity * 2) grown = state->short_capacity * 2;
        if (grown > TKL_SHORTEN_MAX) grown = TKL_SHORTEN_MAX;
        // Units, then their offsets in `text` (one more: the end), then shortened
        // CJK runs (at most one per three units).
        uint16_t *units = realloc(state->short_units, (size_t)grown * sizeof(uint16_t));
        if (units) state->short_units = units;
        int32_t *short_offsets = realloc(state->short_offsets, (size_t)(grown + 1 + grown / 3 + 1) * sizeof(int32_t));
        if (short_offsets) state->short_offsets = short_offsets;
        if (!units || !short_offsets) return tkl_line_breaks_icu(text, length, locale, offsets, capacity);
        state->short_capacity = grown;
    }
    uint16_t *units = state->short_units;
    int32_t *origin = state->short_offsets;
    // Each shortened CJK run, by the index of its last unit in `units`.
    int32_t *gaps = origin + state->short_capacity + 1;
    int32_t n = 0, gap_count = 0;
    for (int32_t i = 0; i < length;) {
        int32_t start = i;
        uint16_t unit = text[i++];
        units[n] = unit;
        origin[n++] = start;
        int cjk = 0;
        if (is_letter(unit)) {
            while (i < length && is_letter(text[i])) i++;
        } else if (is_cjk_text(unit)) {
            while (i < length && is_cjk_text(text[i])) i++;
            cjk = 1;
        } else {
            continue;
        }
        if (i - start >= 2) {
            if (cjk && i - start >= 3) gaps[gap_count++] = n;
            units[n] = text[i - 1];
            origin[n++] = i - 1;
        }
    }
    if (n == length) return tkl_line_breaks_icu(text, length, locale, offsets, capacity);
    origin[n] = length;

    UBreakIterator *iterator = line_iterator(state, locale ? locale : "");
    if (!iterator) return -1;
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(iterator, (const UChar *)units, n, &status);
    if (U_FAILURE(status)) return -1;
    int32_t count = 0, next_gap = 0;
    for (int32_t at = ubrk_following(iterator, 0); at != UBRK_DONE; at = ubrk_next(iterator)) {
        // The inner boundaries of the shortened CJK runs up to here.
        for (; next_gap < gap_count && gaps[next_gap] <= at; next_gap++) {
            int32_t last = gaps[next_gap];
            for (int32_t inner = origin[last - 1] + 1; inner < origin[last]; inner++) {
                if (!is_ideograph(text[inner])) continue;
                if (count >= capacity) return -1;
                offsets[count++] = inner;
            }
        }
        if (count >= capacity) return -1;
        offsets[count++] = origin[at];
    }
    // The iterator keeps pointing at the thread's own scratch units, not at the caller's
    // text: nothing to drop (the next setText replaces it; a reset costs ~200 instructions).
    return count;
}

int32_t tkl_grapheme_breaks(const uint16_t *text, int32_t length,
                            int32_t *offsets, int32_t capacity) {
    if (length <= 0) return 0;
    ThreadState *state = thread_state();
    if (!state) return -1;
    UErrorCode status = U_ZERO_ERROR;
    if (!state->characters) {
        state->characters = ubrk_open(UBRK_CHARACTER, "", NULL, 0, &status);
        if (U_FAILURE(status)) { state->characters = NULL; return -1; }
    }
    ubrk_setText(state->characters, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    int32_t count = 0;
    for (int32_t at = ubrk_following(state->characters, 0); at != UBRK_DONE;
         at = ubrk_next(state->characters)) {
        if (count >= capacity) return -1;
        offsets[count++] = at;
    }
    ubrk_setText(state->characters, NULL, 0, &status);
    return count;
}

// UAX #9 rules P2-P3: the first strong character (L, R, AL) outside isolates decides the
// paragraph level; LTR when there is none. ICU's own default-level detection also counts
// explicit embeddings and overrides (LRE, RLO, ...) as strong, which UBA 6.3+ does not.
static UBiDiLevel first_strong_level(const uint16_t *text, int32_t length) {
    int32_t isolates = 0;
    for (int32_t i = 0; i < length;) {
        UChar32 c;
        U16_NEXT(text, i, length, c);
        switch (u_charDirection(c)) {
        case U_LEFT_TO_RIGHT:
            if (isolates == 0) return 0;
            break;
        case U_RIGHT_TO_LEFT:
        case U_RIGHT_TO_LEFT_ARABIC:
            if (isolates == 0) return 1;
            break;
        case U_LEFT_TO_RIGHT_ISOLATE:
        case U_RIGHT_TO_LEFT_ISOLATE:
        case U_FIRST_STRONG_ISOLATE:
            isolates++;
            break;
        case U_POP_DIRECTIONAL_ISOLATE:
            if (isolates > 0) isolates--;
            break;
        case U_BLOCK_SEPARATOR:
            return 0;
        default:
            break;
        }
    }
    return 0;
}

int32_t tkl_bidi_levels(const uint16_t *text, int32_t length, int32_t paragraph_level,
                        uint8_t *levels) {
    if (length <= 0) return paragraph_level == 1 ? 1 : 0;
    ThreadState *state = thread_state();
    if (!state) return -1;
    UErrorCode status = U_ZERO_ERROR;
    if (!state->bidi) {
        state->bidi = ubidi_open();
        if (!state->bidi) return -1;
    }
    UBiDiLevel level = paragraph_level == 1 ? 1
                     : (paragraph_level == 0 ? 0 : first_strong_level(text, length));
    ubidi_setPara(state->bidi, (const UChar *)text, length, level, NULL, &status);
    if (U_FAILURE(status)) return -1;
    const UBiDiLevel *resolved = ubidi_getLevels(state->bidi, &status);
    if (U_FAILURE(status) || !resolved) return -1;
    memcpy(levels, resolved, (size_t)length);
    int32_t result = ubidi_getParaLevel(state->bidi);
    // Release the reference to the caller's text.
    ubidi_setPara(state->bidi, (const UChar *)u"", 0, 0, NULL, &status);
    return result;
}

int32_t tkl_reorder_visual(const uint8_t *levels, int32_t length, int32_t *visual_to_logical) {
    if (length <= 0) return 0;
    ubidi_reorderVisual(levels, length, visual_to_logical);
    return 0;
}

int32_t tkl_bidi_class(uint32_t code_point) { return (int32_t)u_charDirection((UChar32)code_point); }

int32_t tkl_is_emoji_presentation(uint32_t code_point) {
    return u_hasBinaryProperty((UChar32)code_point, UCHAR_EMOJI_PRESENTATION) ? 1 : 0;
}

int32_t tkl_is_extended_pictographic(uint32_t code_point) {
    return u_hasBinaryProperty((UChar32)code_point, UCHAR_EXTENDED_PICTOGRAPHIC) ? 1 : 0;
}

int32_t tkl_general_category(uint32_t code_point) { return (int32_t)u_charType((UChar32)code_point); }

int32_t tkl_grapheme_cluster_break(uint32_t code_point) {
    return (int32_t)u_getIntPropertyValue((UChar32)code_point, UCHAR_GRAPHEME_CLUSTER_BREAK);
}

int32_t tkl_is_upright_in_vertical(uint32_t code_point) {
    return u_getIntPropertyValue((UChar32)code_point, UCHAR_VERTICAL_ORIENTATION) != U_VO_ROTATED;
}

const char *tkl_icu_version(void) { return U_ICU_VERSION; }
