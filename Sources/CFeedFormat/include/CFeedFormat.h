// The project's plain-C interface over ICU's i18n formatters (libicui18n), for the feed
// layer's labels: relative times ("3分钟前", "3 minutes ago") and dates in a language's own
// form. Kept out of the core library, which links ICU's common library only.
#ifndef TKL_CFEEDFORMAT_H
#define TKL_CFEEDFORMAT_H

#include <stdint.h>

/// The unit of a relative time.
typedef enum {
    TKL_REL_SECOND = 0,
    TKL_REL_MINUTE = 1,
    TKL_REL_HOUR = 2,
    TKL_REL_DAY = 3,
} tkl_rel_unit;

/// Writes `value` `unit`s relative to now (negative: in the past) in the language of
/// `locale` (a BCP 47 tag or ICU locale id) as UTF-8 into `out` (NUL-terminated), in ICU's
/// long style: "3 minutes ago", "3分钟前", "לפני 3 דקות". With `named` nonzero ICU may use
/// a word ("yesterday", "昨天", "now"). Returns the UTF-8 length, or -1 when ICU fails or
/// `out` is too small.
int32_t tkl_relative_time(const char *locale, double value, tkl_rel_unit unit, int named, char *out, int32_t capacity);

/// Writes the date at `seconds` since 1970 (UTC) in the form ICU's pattern generator gives
/// `skeleton` ("MMMd": "Nov 28", "11月28日"; "yMMMd" with the year) for `locale`, in UTC,
/// as UTF-8 into `out`. Returns the UTF-8 length, or -1.
int32_t tkl_format_date(const char *locale, double seconds, const char *skeleton, char *out, int32_t capacity);

#endif
