#!/usr/bin/env python3
"""Writes the seed corpus of LayoutFuzzer to corpus/: an 8-byte header of options (see
FuzzCase in Sources/LayoutFuzzer/LayoutFuzzer.swift), then the text as UTF-8."""
import os

def header(width=50, size=107, lines=0, token=0, trunc=0, align=0, two=False, direction=0, lh=0,
           mult=0, scale=2, debug=False, bg=False, cancel=None, inset=0, spacing=0, lang=0,
           pixels=0, feed=False, pgm=False):
    """width: 1 + 2×byte points (255: infinite); size: 1 + 0.15×byte points (< 224)."""
    b2 = (0 if lines == 0 else lines + 5) | (token << 4)
    b3 = (trunc + 3 * align) | (0xC0 if two else 0)
    b4 = direction + 3 * lh + 12 * mult
    b5 = scale | (8 if debug else 0) | (0x10 if bg else 0) | ((cancel + 5) << 5 if cancel is not None else 0)
    b6 = inset | (spacing << 2) | (lang << 5)
    b7 = 0xFE if feed else 0xFD if pgm else pixels
    return bytes([width, size, b2, b3, b4, b5, b6, b7])

CASES = {
    "mixed-scripts": (header(width=50), "Hello, 世界 👋 مرحبا שלום Привет Ελληνικά 123"),
    "bidi-controls": (header(width=60), "abc \u202bאבג\u202c def \u2067עברית\u2069 123 (א) \u202eevil\u202c \u200fx\u200e"),
    "emoji-sequences": (header(width=40, size=231, scale=2), "👨‍👩‍👧‍👦🇨🇳🇺🇸👍🏽1️⃣❤️‍🔥🏳️‍🌈 text ☺︎ ☺️"),
    "long-word": (header(width=20, lines=3, token=8),
                  "Supercalifragilisticexpialidocious https://example.com/a/very/long/path?query=value&x=1"),
    "newlines": (header(width=100, lh=2), "a\n\nb\r\nc\u2028d\u2029e\rf\u000bg\u000ch\u0085i\n"),
    "chinese-justify": (header(width=70, align=4, lines=3, token=8, lang=2),
                        "这是一个测试，我们看看标点符号。会不会出现在行首！当然不会？「引号」也是。中文English混排🎉"),
    "arabic-middle": (header(width=60, direction=2, lines=1, trunc=2, token=14),
                      "مرحبا بالعالم هذا نص عربي طويل يلتف على عدة أسطر ١٢٣"),
    "combining-marks": (header(width=10, size=231, scale=2), "e" + "\u0301\u0302\u0303\u0304\u0308" * 40 + " Z\u0351\u0352\u0353"),
    "controls-nul": (header(width=30, debug=True), "a\u0000b\u0001c\td\u007f\u0085e\u200bf\u00adg"),
    "feed-line": (header(width=180, feed=True), '{"id":1,"author":"a","text":"hi 🎉 @x #t# https://e.com","quote":"q 世界","images":3}'),
    "hangul-thai-devanagari": (header(width=35, two=True), "한국어 ภาษาไทยเป็นภาษา हिन्दी क्षत्रिय 각"),
    "spaces-justify": (header(width=50, align=4, inset=2, spacing=4), "   leading   and trailing   spaces   between  words   "),
    "start-truncation": (header(width=40, lines=1, trunc=1, token=10), "The quick brown fox jumps over the lazy dog again and again"),
    "cancel-uniform": (header(width=30, lh=2, cancel=1, mult=2), "one two three four five six seven eight nine ten"),
    "maxlines-prefix-bidi": (header(width=50, lines=2), " ".join(str(i) for i in range(300)) + " مرحبا بالعالم"),
}

if __name__ == "__main__":
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(folder, exist_ok=True)
    for name, (head, text) in CASES.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(head + text.encode("utf-8"))
    with open(os.path.join(folder, "pgm-image"), "wb") as f:
        f.write(header(pgm=True) + b"P5\n# comment\n3 2\n255\n" + bytes(range(0, 250, 42)))
    with open(os.path.join(folder, "invalid-utf8"), "wb") as f:
        f.write(header(width=40) + b"abc\xff\xfe\xc3(def\xe2\x82 \xed\xa0\x80 end")
