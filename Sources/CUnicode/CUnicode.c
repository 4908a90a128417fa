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

typedef struct {
    LineSlot lines[TKL_LOCALE_SLOTS];
    int32_t next_slot;
    UBreakIterator *characters;
    UBiDi *bidi;
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

int32_t tkl_line_breaks(const uint16_t *text, int32_t length, const char *locale,
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

const char *tkl_icu_version(void) { return U_ICU_VERSION; }
