internal import CHarfBuzz

extension TextStyle {
    /// The language a text most likely is in, from the script of its letters, for what must
    /// be said in some language when none is given (a feed cell's labels for a post without
    /// `lang`): "ja" for Han text with kana anywhere in it, "zh" for other Han text, "ko",
    /// "ar", "he", "ru", "el", "th" and the languages system fallback asks fontconfig for by
    /// script, "en" for Latin; nil when no letter says (digits, emoji, punctuation only).
    /// The first letter of a script with a language decides, except that kana anywhere makes
    /// Han text Japanese.
    ///
    /// - Complexity: O(n) in the text's scalars.
    public static func likelyLanguage(of text: String) -> String? {
        var sawHan = false
        for scalar in text.unicodeScalars {
            let script = Script(of: scalar.value)
            switch hb_script_t(rawValue: script.rawValue) {
            case HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA: return "ja"
            case HB_SCRIPT_HAN: sawHan = true
            default: if !sawHan, let language = Self.language(of: script) { return language }
            }
        }
        return sawHan ? "zh" : nil
    }

    /// The language of a script's letters, if one language is theirs (or most likely).
    private static func language(of script: Script) -> String? {
        switch hb_script_t(rawValue: script.rawValue) {
        case HB_SCRIPT_LATIN: "en"
        case HB_SCRIPT_ARABIC: "ar"
        case HB_SCRIPT_HEBREW: "he"
        case HB_SCRIPT_CYRILLIC: "ru"
        case HB_SCRIPT_GREEK: "el"
        default: SystemFallback.language(of: script)
        }
    }
}
