internal import CFeedFormat
import Foundation
import TextKitLite

/// The words a feed cell shows around a post, in the post's language: the line under the
/// author ("3分钟前 来自 iPhone", "3 minutes ago via iPhone") and the footer ("转发 12 · 评论 3
/// · 赞 45"). The language is the post's `lang` when a table below has it (by its primary
/// subtag; `zh-Hant` and `zh-TW` get traditional characters), else the one its text's script
/// most likely is (`TextStyle.likelyLanguage(of:)`), else English.
///
/// Relative times and dates come from ICU (its relative-date formatter and date pattern
/// generator, in UTC), the counts from Foundation's compact number format ("1.2万", "12K");
/// the footer's and the source's words are this table's.
enum FeedLabels {
    /// A language's words.
    struct Words: Sendable {
        let repost: String, comment: String, like: String
        /// The source line's form, "%@" the source: "来自 %@", "via %@".
        let source: String
    }

    static let table: [String: Words] = [
        "zh": Words(repost: "转发", comment: "评论", like: "赞", source: "来自 %@"),
        "zh-Hant": Words(repost: "轉發", comment: "評論", like: "讚", source: "來自 %@"),
        "ja": Words(repost: "リポスト", comment: "コメント", like: "いいね", source: "%@から"),
        "ko": Words(repost: "리포스트", comment: "댓글", like: "좋아요", source: "%@에서"),
        "en": english,
        "ar": Words(repost: "إعادة نشر", comment: "تعليق", like: "إعجاب", source: "عبر %@"),
        "he": Words(repost: "שיתוף", comment: "תגובה", like: "לייק", source: "דרך %@"),
    ]

    /// A language's words: English for a language the table lacks.
    static func words(for language: String) -> Words { table[language] ?? english }

    private static let english = Words(repost: "Repost", comment: "Comment", like: "Like", source: "via %@")

    /// The language of a post's labels: a key of `table`.
    static func language(of post: FeedPost) -> String {
        if let tag = post.language {
            let parts = tag.split(separator: "-").map { $0.lowercased() }
            if parts.first == "zh", parts.contains(where: { ["hant", "tw", "hk", "mo"].contains($0) }) { return "zh-Hant" }
            if let primary = parts.first, table[primary] != nil { return primary }
        }
        guard let guess = TextStyle.likelyLanguage(of: post.text) ?? post.quote.flatMap(TextStyle.likelyLanguage(of:)) else {
            return "en"
        }
        return table[guess] != nil ? guess : "en"
    }

    /// The footer of a post: each action's word, followed by its count when it is above 0.
    static func footer(_ post: FeedPost, language: String) -> String {
        let words = words(for: language)
        return [(words.repost, post.reposts), (words.comment, post.comments), (words.like, post.likes)].map { word, count in
            guard let count, count > 0 else { return word }
            return word + " " + Self.count(count, language: language)
        }.joined(separator: " · ")
    }

    /// The line under the author: the post's time (relative to `now`, or its date when there is
    /// no `now`) and its source; nil when the post has neither.
    static func meta(_ post: FeedPost, now: Date?, language: String) -> String? {
        var parts: [String] = []
        if let time = post.time { parts.append(Self.time(time, now: now, language: language)) }
        if let source = post.source, !source.isEmpty {
            parts.append(words(for: language).source.replacingOccurrences(of: "%@", with: source))
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// A count as the language writes it compactly: "45", "1.2万", "12K".
    static func count(_ value: Int, language: String) -> String {
        value < 10_000 ? String(value) : value.formatted(.number.notation(.compactName).locale(Locale(identifier: language)))
    }

    /// A time as a feed shows it against `now`: "now" within a minute (or ahead of `now`),
    /// minutes within an hour, hours within a day, "yesterday" / days within a week, then the
    /// date (with its year when not `now`'s); the date alone without `now`.
    static func time(_ time: Date, now: Date?, language: String) -> String {
        let formatted = Formatted.shared
        guard let now else { return formatted.date(time, withYear: true, language: language) }
        let seconds = now.timeIntervalSince(time)
        switch seconds {
        case ..<60: return formatted.relative(0, .second, language: language)
        case ..<3600: return formatted.relative(-(seconds / 60).rounded(.down), .minute, language: language)
        case ..<86_400: return formatted.relative(-(seconds / 3600).rounded(.down), .hour, language: language)
        case ..<(7 * 86_400): return formatted.relative(-(seconds / 86_400).rounded(.down), .day, language: language)
        default:
            let calendar = Calendar(identifier: .gregorian)
            var utc = calendar
            utc.timeZone = TimeZone(identifier: "UTC")!
            let sameYear = utc.component(.year, from: time) == utc.component(.year, from: now)
            return formatted.date(time, withYear: !sameYear, language: language)
        }
    }

    /// ICU's formatters are costly to open: what they wrote is kept, by its inputs (a feed
    /// asks for few distinct ones: minutes 1 to 59, hours, days, dates).
    private final class Formatted: Sendable {
        static let shared = Formatted()
        private let cache = Locked<[String: String]>([:])

        enum Unit { case second, minute, hour, day }

        func relative(_ value: Double, _ unit: Unit, language: String) -> String {
            let code: tkl_rel_unit = switch unit {
            case .second: TKL_REL_SECOND
            case .minute: TKL_REL_MINUTE
            case .hour: TKL_REL_HOUR
            case .day: TKL_REL_DAY
            }
            // A word where ICU has one: "now", "yesterday"; numbers otherwise.
            let named: Int32 = unit == .second || (unit == .day && value == -1) ? 1 : 0
            return cached("r|\(language)|\(code.rawValue)|\(value)|\(named)") { buffer, capacity in
                tkl_relative_time(language, value, code, named, buffer, capacity)
            } ?? "\(Int(-value))"
        }

        func date(_ date: Date, withYear: Bool, language: String) -> String {
            let day = (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
            return cached("d|\(language)|\(day)|\(withYear)") { buffer, capacity in
                tkl_format_date(language, day, withYear ? "yMMMd" : "MMMd", buffer, capacity)
            } ?? ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        }

        private func cached(_ key: String, _ format: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
            if let hit = cache.withLock({ $0[key] }) { return hit }
            var buffer = [CChar](repeating: 0, count: 256)
            guard format(&buffer, 256) >= 0 else { return nil }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            cache.withLock { if $0.count < 4096 { $0[key] = text } }
            return text
        }
    }
}
