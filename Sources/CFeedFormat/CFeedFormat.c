#include "CFeedFormat.h"

#include <string.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uloc.h>
#include <unicode/ureldatefmt.h>
#include <unicode/ustring.h>

/// The ICU locale id of a BCP 47 tag ("zh-Hant" → "zh_Hant"), or "en" when it is not one.
static void locale_id(const char *tag, char *id, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = 0;
    uloc_forLanguageTag(tag, id, capacity, &length, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING || id[0] == 0) {
        strncpy(id, "en", (size_t)capacity);
    }
}

/// UTF-16 `text` of `length` units as UTF-8 in `out`; the UTF-8 length or -1.
static int32_t to_utf8(const UChar *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = 0;
    u_strToUTF8(out, capacity, &written, text, length, &status);
    if (U_FAILURE(status) || written >= capacity) return -1;
    out[written] = 0;
    return written;
}

int32_t tkl_relative_time(const char *locale, double value, tkl_rel_unit unit, int named, char *out, int32_t capacity) {
    char id[64];
    locale_id(locale, id, (int32_t)sizeof id);
    UErrorCode status = U_ZERO_ERROR;
    URelativeDateTimeFormatter *formatter =
        ureldatefmt_open(id, NULL, UDAT_STYLE_LONG, UDISPCTX_CAPITALIZATION_FOR_STANDALONE, &status);
    if (U_FAILURE(status)) return -1;
    static const URelativeDateTimeUnit units[] = {UDAT_REL_UNIT_SECOND, UDAT_REL_UNIT_MINUTE, UDAT_REL_UNIT_HOUR, UDAT_REL_UNIT_DAY};
    UChar text[128];
    int32_t length = named ? ureldatefmt_format(formatter, value, units[unit], text, 128, &status)
                           : ureldatefmt_formatNumeric(formatter, value, units[unit], text, 128, &status);
    ureldatefmt_close(formatter);
    if (U_FAILURE(status) || length >= 128) return -1;
    return to_utf8(text, length, out, capacity);
}

int32_t tkl_format_date(const char *locale, double seconds, const char *skeleton, char *out, int32_t capacity) {
    char id[64];
    locale_id(locale, id, (int32_t)sizeof id);
    UErrorCode status = U_ZERO_ERROR;
    UDateTimePatternGenerator *generator = udatpg_open(id, &status);
    if (U_FAILURE(status)) return -1;
    UChar skeletonText[32], pattern[64];
    u_uastrncpy(skeletonText, skeleton, 31);
    skeletonText[31] = 0;
    int32_t patternLength = udatpg_getBestPattern(generator, skeletonText, -1, pattern, 64, &status);
    udatpg_close(generator);
    if (U_FAILURE(status) || patternLength >= 64) return -1;
    static const UChar utc[] = {'U', 'T', 'C', 0};
    UDateFormat *format = udat_open(UDAT_PATTERN, UDAT_PATTERN, id, utc, -1, pattern, patternLength, &status);
    if (U_FAILURE(status)) return -1;
    UChar text[128];
    int32_t length = udat_format(format, seconds * 1000.0, text, 128, NULL, &status);
    udat_close(format);
    if (U_FAILURE(status) || length >= 128) return -1;
    return to_utf8(text, length, out, capacity);
}
