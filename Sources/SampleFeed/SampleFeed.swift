import TextKitLiteFeed

/// Deterministic synthetic feed posts for benchmarks and memory tests.
///
/// A post is a pure function of its index and a seed, so a million-post feed costs no memory
/// until it is iterated, and every run sees the same text. The mix resembles a real feed:
/// about 40% Chinese, 30% English, 15% Chinese mixed with English words and emoji (ZWJ
/// sequences, skin tones, flags), 10% Arabic or Hebrew and 5% long multi-paragraph posts;
/// texts of 5 to about 400 characters; about 15% reposts with a quote and 30% with 1 to 9
/// images; @mentions, topics and URLs. Words come from small built-in vocabularies, frequent
/// words drawn more often, so that they repeat across posts as in a real feed (which is what a
/// shaped-word cache relies on). Every character is covered by the bundled fonts.
public enum SampleFeed {
    /// The post at `index` of the feed generated from `seed`.
    ///
    /// - Parameters:
    ///   - index: Position in the feed; the post's id is `"p<index>"`.
    ///   - seed: Selects the feed; different seeds give different posts.
    /// - Returns: The same post for the same index and seed, on every run and platform.
    public static func post(_ index: Int, seed: UInt64 = 1) -> FeedPost {
        var random = SplitMix64(
            state: SplitMix64.mix(SplitMix64.mix(seed) &+ UInt64(truncatingIfNeeded: index)))
        let kind = random.below(100)
        let language: Language
        let length: Int
        switch kind {
        case 0..<40: language = .chinese
        case 40..<70: language = .english
        case 70..<85: language = .mixed
        case 85..<91: language = .arabic
        case 91..<95: language = .hebrew
        default: language = random.pick([.chinese, .chinese, .english, .english, .mixed, .arabic])
        }
        if kind >= 95 {
            length = random.within(280...360)
        } else {
            let band = random.below(100)
            length = band < 30 ? random.within(5...30) : band < 80 ? random.within(30...140) : random.within(140...260)
        }
        let author = random.pick(authors(language))
        let text = compose(language, length: length, paragraphs: kind >= 95, extras: true, random: &random)
        var quote: String?
        if random.below(100) < 15 {
            let quoted = random.pick([Language.chinese, .chinese, .chinese, .english, .english, .mixed, .arabic, .hebrew])
            let name = random.pick(authors(quoted))
            let body = compose(quoted, length: random.within(10...100), paragraphs: false, extras: false,
                               random: &random)
            quote = "@\(name): \(body)"
        }
        let images = random.below(100) < 30 ? random.pick(imageCounts) : 0
        return FeedPost(id: "p\(index)", author: author, text: text, quote: quote, images: images)
    }

    /// The first `count` posts of the feed generated from `seed`, made one at a time as the
    /// sequence is iterated.
    ///
    /// - Complexity: O(1) to create; each element costs one `post(_:seed:)` call.
    public static func posts(count: Int, seed: UInt64 = 1) -> some Sequence<FeedPost> {
        precondition(count >= 0, "negative post count \(count)")
        return (0..<count).lazy.map { post($0, seed: seed) }
    }

    /// One JSON Lines record for `post` (without the newline), which `FeedLineParser` reads back
    /// to an equal post.
    ///
    /// Keys come in the order `id`, `author`, `text`, `quote` (when present), `images`; strings
    /// are escaped as RFC 8259 requires (quote, backslash, control characters) and otherwise
    /// written as UTF-8.
    public static func jsonLine(_ post: FeedPost) -> String {
        var line = "{\"id\":"
        appendJSONString(post.id, to: &line)
        line += ",\"author\":"
        appendJSONString(post.author, to: &line)
        line += ",\"text\":"
        appendJSONString(post.text, to: &line)
        if let quote = post.quote {
            line += ",\"quote\":"
            appendJSONString(quote, to: &line)
        }
        line += ",\"images\":\(post.images)}"
        return line
    }

    private static func appendJSONString(_ string: String, to line: inout String) {
        line += "\""
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            line += string
        } else {
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": line += "\\\""
                case "\\": line += "\\\\"
                case "\n": line += "\\n"
                case "\r": line += "\\r"
                case "\t": line += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: line.unicodeScalars.append(scalar)
                }
            }
        }
        line += "\""
    }
}

// MARK: - Composition

extension SampleFeed {
    enum Language { case chinese, english, mixed, arabic, hebrew }

    /// Text of about `length` characters: sentences until the length is reached, then (when
    /// `extras`) a mention, topic, URL or emoji now and then.
    static func compose(_ language: Language, length: Int, paragraphs: Bool, extras: Bool,
                        random: inout SplitMix64) -> String {
        var text = Text()
        if extras, random.below(100) < 15 {
            text.append("@\(random.pick(authors(language))) ")
        }
        if extras, language == .chinese || language == .mixed, random.below(100) < 15 {
            text.append(random.skewedPick(chineseTopics) + " ")
        }
        var sentences = 0
        while text.length < length {
            if sentences > 0 {
                let breakParagraph = random.below(100) < (paragraphs ? 30 : 4)
                if breakParagraph {
                    text.append(language == .english || random.below(2) == 0 ? "\n\n" : "\n")
                } else if language != .chinese && language != .mixed {
                    text.append(" ")
                }
            }
            sentence(language, into: &text, random: &random)
            sentences += 1
        }
        guard extras else { return text.string }
        switch language {
        case .english where random.below(100) < 20:
            text.append(" " + random.skewedPick(englishTags))
        case .arabic where random.below(100) < 15:
            text.append(" " + random.pick(["#برمجة", "#سفر", "#قهوة"]))
        case .hebrew where random.below(100) < 15:
            text.append(" " + random.pick(["#טכנולוגיה", "#טיול", "#קפה"]))
        default: break
        }
        if random.below(100) < 15, language != .mixed {
            text.append(" ")
            text.appendEmoji(random.skewedPick(emoji))
        }
        if random.below(100) < 8 {
            text.append(" " + url(&random))
        }
        return text.string
    }

    /// Appends one sentence in `language`.
    private static func sentence(_ language: Language, into text: inout Text, random: inout SplitMix64) {
        switch language {
        case .chinese:
            for clause in 0..<random.within(1...3) {
                if clause > 0 { text.append(random.pick(["，", "，", "，", "、"])) }
                let phrase = random.skewedPick(chinesePhrases)
                text.append(random.below(100) < 6 ? "“\(phrase)”" : phrase)
            }
            text.append(random.pick(["。", "。", "。", "！", "！", "？", "～", "……"]))
        case .mixed:
            for piece in 0..<random.within(2...4) {
                switch random.below(100) {
                case 0..<60:
                    if piece > 0, random.below(2) == 0 { text.append("，") }
                    text.appendChinese(random.skewedPick(chinesePhrases))
                case 60..<85: text.appendLatin(random.skewedPick(mixedTerms))
                default: text.appendEmoji(random.skewedPick(emoji))
                }
            }
            text.append(random.pick(["", "！", "。", "～"]))
            text.appendEmoji(random.skewedPick(emoji))
        case .english:
            let count = random.within(3...14)
            for i in 0..<count {
                let pick = random.skewedIndex(englishWords.count)
                let word = i == 0 ? capitalizedEnglishWords[pick] : englishWords[pick]
                if i > 0 { text.append(" ") }
                text.append(random.below(100) < 3 ? "\"\(word)\"" : word)
                if i < count - 1, random.below(100) < 8 { text.append(",") }
            }
            text.append(random.pick([".", ".", ".", "!", "?", "..."]))
        case .arabic, .hebrew:
            let words = language == .arabic ? arabicWords : hebrewWords
            let count = random.within(3...10)
            for i in 0..<count {
                if i > 0 { text.append(" ") }
                text.append(random.below(100) < 5 ? random.pick(rtlInserts) : random.skewedPick(words))
                if i < count - 1, random.below(100) < 8 { text.append(language == .arabic ? "،" : ",") }
            }
            text.append(random.pick([".", ".", "!", language == .arabic ? "؟" : "?"]))
        }
    }

    private static func url(_ random: inout SplitMix64) -> String {
        var token = ""
        for _ in 0..<6 { token.append(random.pick(urlAlphabet)) }
        return "https://example.com/" + random.pick(["s/", "p/", "video/", "news/2024/"]) + token
    }

    private static func authors(_ language: Language) -> [String] {
        switch language {
        case .chinese, .mixed: chineseAuthors
        case .english: englishAuthors
        case .arabic: arabicAuthors
        case .hebrew: hebrewAuthors
        }
    }

    /// Text being composed, with its length kept as it grows.
    struct Text {
        private(set) var string = ""
        /// Length so far: Unicode scalars, except that an emoji sequence counts as one. Close
        /// to the number of characters, without the cost of grapheme breaking.
        private(set) var length = 0
        /// Whether the text ends with a space or a line break.
        private var endsWithSpace = false
        /// Whether the text ends with a Latin word inside Chinese text.
        private var endsWithLatin = false

        mutating func append(_ piece: String) {
            guard !piece.isEmpty else { return }
            string += piece
            var scalars = 0
            var last: UInt8 = 0
            for byte in piece.utf8 {
                if byte & 0xC0 != 0x80 { scalars += 1 }  // not a UTF-8 continuation byte
                last = byte
            }
            length += scalars
            endsWithSpace = last == UInt8(ascii: " ") || last == UInt8(ascii: "\n")
            endsWithLatin = false
        }

        mutating func appendEmoji(_ emoji: String) {
            append(emoji)
            length += 1 - emoji.unicodeScalars.count
        }

        /// Appends a Chinese phrase, after a space if it follows a Latin word.
        mutating func appendChinese(_ phrase: String) {
            if endsWithLatin { append(" ") }
            append(phrase)
        }

        /// Appends a Latin word inside Chinese text, after a space unless it starts the text.
        mutating func appendLatin(_ word: String) {
            if !string.isEmpty, !endsWithSpace { append(" ") }
            append(word)
            endsWithLatin = true
        }
    }
}

// MARK: - Random numbers

extension SampleFeed {
    /// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
    /// OOPSLA 2014): a 64-bit counter passed through a mixing function. Small, fast and the same
    /// on every platform, unlike the standard library's `SystemRandomNumberGenerator`.
    struct SplitMix64 {
        var state: UInt64

        /// The SplitMix64 finalizer: a bijection of `UInt64` that spreads every input bit.
        static func mix(_ value: UInt64) -> UInt64 {
            var z = value
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }

        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            return Self.mix(state)
        }

        /// A number in `0..<bound` (Lemire's multiply-high mapping; the bias is below 2⁻⁵⁰ here).
        mutating func below(_ bound: Int) -> Int {
            Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
        }

        mutating func within(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + below(range.count)
        }

        mutating func pick<Element>(_ elements: [Element]) -> Element {
            elements[below(elements.count)]
        }

        /// An element drawn with a falling (triangular) weight: the first is chosen about twice as
        /// often as one in the middle, so early entries of a vocabulary repeat the most.
        mutating func skewedPick<Element>(_ elements: [Element]) -> Element {
            elements[skewedIndex(elements.count)]
        }

        /// An index in `0..<count`, low indices more likely (see `skewedPick(_:)`).
        mutating func skewedIndex(_ count: Int) -> Int {
            min(below(count), below(count))
        }
    }
}

// MARK: - Vocabularies

extension SampleFeed {
    /// Image counts of posts that have images, weighted toward the common 1, 3, 4 and 9 grids.
    static let imageCounts = [1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 6, 7, 8, 9, 9, 9]

    static let chineseAuthors = [
        "小林同学", "阿杰", "数码老王", "湖边的风", "铲屎官日记", "写代码的小王", "读书的猫", "美食地图",
        "周末去哪儿", "诗和远方", "早起的鸟", "北京小陈", "上海阿姨", "深夜食堂", "跑步的兔子", "旅行日记本",
    ]
    static let englishAuthors = [
        "Mia Chen", "typenerd", "Priya", "sam_k", "coach_lee", "night_owl", "dev_team", "photo.lu",
        "Daniel", "Emma W.", "trailmix", "Jordan", "katie_codes", "Ben Ortiz",
    ]
    static let arabicAuthors = ["أحمد", "سارة", "ليلى", "كريم", "نور", "عمر", "Omar Haddad", "يوسف"]
    static let hebrewAuthors = ["נועה", "יונתן", "דניאל", "מיכל", "אורי", "תמר", "Noa Levi"]

    /// Letters and digits of short-link tokens (without the look-alikes l, I, O, 0 and 1).
    static let urlAlphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    static let chineseTopics = [
        "#周末去哪儿#", "#今日份快乐#", "#打工人#", "#每日一问#", "#晨跑打卡#", "#美食分享#", "#读书笔记#",
        "#技术分享#", "#今天吃什么#", "#城市夜景#",
    ]
    static let englishTags = [
        "#swift", "#weekend", "#running", "#coffee", "#photography", "#buildinpublic", "#travel", "#bookclub",
    ]

    /// Short Chinese clauses, most frequent first.
    static let chinesePhrases = [
        "今天", "真的", "终于", "我们", "大家", "感觉", "有点累", "太好了", "天气不错", "下班了", "周末",
        "一起去", "吃火锅", "喝咖啡", "推荐给大家", "特别好看", "哈哈哈", "明天见", "早上好", "晚安",
        "加班到十点", "地铁上人好多", "新买的手机", "拍了几张照片", "看了一部电影", "这家店的面很好吃",
        "排队排了一个小时", "孩子放学回家", "妈妈做的饭", "公园里的花开了", "下雨了", "出门忘了带伞",
        "项目终于上线", "代码写完了", "开了一下午的会", "老板说周五之前", "朋友送的礼物", "去海边走走",
        "晚上的风很舒服", "秋天的树叶黄了", "猫咪在睡觉", "小狗跑得好快", "点个外卖吧", "快递到了",
        "学习了新东西", "坚持跑步第三十天", "读完了一本书", "图书馆里很安静", "城市的夜景", "日落特别美",
        "星星好亮", "其实也还好", "但是没关系", "如果有机会", "因为太忙了", "所以先这样", "一定要去看看",
        "希望明天更好", "谢谢大家的关心", "评论区见", "转发抽奖", "点赞收藏", "热搜第一", "直播马上开始",
        "超市打折", "买了一堆水果", "奶茶半价", "考试结束了", "毕业快乐", "回家过年", "春天来了",
        "夏天太热", "冬天的第一场雪", "健身房人不多", "睡了一个好觉", "熬夜追剧", "生活就是这样",
    ]
    /// Latin words and brands that appear inside Chinese posts.
    static let mixedTerms = [
        "iPhone", "App", "bug", "OK", "Wi-Fi", "deadline", "meeting", "PPT", "Swift", "MacBook", "vlog",
        "Python", "GitHub", "iPad", "AI", "KPI", "NBA", "Plan B", "Switch", "Excel",
    ]
    /// Emoji, single code points and sequences: presentation selectors, skin tones, ZWJ
    /// families and professions, flags and keycaps.
    static let emoji = [
        "😂", "❤️", "👍", "🎉", "😭", "🙏", "✨", "🔥", "😋", "👍🏽", "☕", "🐱", "🌸", "🍁", "🚀", "💻",
        "📷", "👋🏻", "💪🏿", "🙏🏼", "👏🏾", "👨‍👩‍👧", "👩‍💻", "🧑‍🚀", "🏳️‍🌈", "👨‍🍳", "🧑🏽‍🤝‍🧑🏻",
        "🇨🇳", "🇺🇸", "🇯🇵", "🇫🇷", "🇧🇷", "1️⃣", "🍜", "🐶", "🌙",
    ]
    /// English words, most frequent first.
    static let englishWords = [
        "the", "I", "and", "to", "a", "of", "it", "is", "in", "my", "for", "this", "that", "on", "with",
        "was", "so", "just", "you", "we", "be", "at", "have", "are", "not", "but", "all", "today", "new",
        "time", "good", "day", "really", "one", "get", "what", "like", "out", "about", "now", "can",
        "when", "up", "more", "people", "got", "love", "great", "first", "work", "week", "back", "still",
        "need", "make", "going", "think", "know", "see", "last", "night", "some", "little", "after",
        "best", "never", "year", "home", "again", "morning", "coffee", "weekend", "team", "project",
        "code", "release", "bug", "fix", "feature", "app", "phone", "update", "review", "meeting",
        "friends", "family", "city", "park", "train", "rain", "sun", "dinner", "lunch", "photo", "video",
        "music", "movie", "book", "read", "run", "walk", "trip", "beach", "game", "win", "finally",
        "amazing", "beautiful", "happy", "tired", "busy", "quick", "small", "big", "long", "early",
        "late", "thanks", "everyone", "anyone", "tomorrow", "tonight", "here", "there", "right",
        "shipped", "layout", "font", "emoji", "screen", "scrolling", "cache", "fast", "slow",
    ]
    /// `englishWords`, each with a capital first letter, to start a sentence.
    static let capitalizedEnglishWords = englishWords.map { $0.prefix(1).uppercased() + $0.dropFirst() }
    static let arabicWords = [
        "في", "من", "على", "مع", "اليوم", "هذا", "كان", "يوم", "إلى", "جداً", "الطقس", "جميل",
        "الأصدقاء", "المدينة", "القهوة", "العمل", "الكتاب", "صباح", "الخير", "مساء", "شكراً", "رائع",
        "نحن", "ذهبنا", "البحر", "السوق", "الجديد", "أحب", "هذه", "الصورة", "الحديقة", "الطعام", "لذيذ",
        "الأسبوع", "القادم", "مباراة", "كرة", "القدم", "الليلة", "البيت", "العائلة", "التطبيق",
        "البرمجة", "الصيف", "المطر", "السفر", "الطريق", "الأطفال", "المدرسة", "سعيد",
    ]
    static let hebrewWords = [
        "של", "את", "על", "עם", "היום", "זה", "היה", "יום", "מאוד", "אני", "מזג", "האוויר", "יפה",
        "חברים", "בעיר", "קפה", "עבודה", "ספר", "בוקר", "טוב", "ערב", "תודה", "נהדר", "אנחנו",
        "הלכנו", "לים", "שוק", "חדש", "אוהב", "התמונה", "בגינה", "אוכל", "טעים", "שבוע", "הבא",
        "משחק", "כדורגל", "הלילה", "בבית", "משפחה", "שלום", "מחר", "הקוד", "האפליקציה", "קיץ",
        "גשם", "טיול", "הדרך", "ילדים", "שמח",
    ]
    /// Left-to-right words and numbers dropped into Arabic and Hebrew posts.
    static let rtlInserts = ["iPhone", "Swift", "Wi-Fi", "2024", "10:30", "3.2", "OK", "GitHub", "❤️", "👍🏽"]
}
