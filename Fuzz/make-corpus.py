#!/usr/bin/env python3
"""Writes the seed corpora: LayoutFuzzer's to corpus/ (an 8-byte header of options, see
FuzzCase in Sources/LayoutFuzzer/LayoutFuzzer.swift, then the exclusion shapes' bytes when
the header asks for shapes, then the text as UTF-8) and
FontFuzzer's to corpus-fonts/ (a 5-byte header, 8 bytes per damage to a bundled font, see
Sources/FontFuzzer/, then the text; no font bytes: a seed names a bundled font)."""
import os

def header(width=50, size=107, lines=0, token=0, trunc=0, align=0, two=False, direction=0, lh=0,
           mult=0, scale=2, debug=False, bg=False, cancel=None, inset=0, spacing=0, lang=0,
           pixels=0, feed=False, pgm=False, flow=0, vertical=False):
    """width: 1 + 2×byte points (255: infinite); size: 1 + 0.15×byte points (< 224);
    flow: 1 balance, 2 exclusion shapes and balance, 3 to 5 shapes (`shapes` starts the body);
    pixels: byte 7 (pixel limit, second style's attributes, 0x80 attachments on U+FFFC);
    vertical: columns (0x40 in byte 7; its 0x20 stays clear)."""
    b2 = (0 if lines == 0 else lines + 5) | (token << 4)
    b3 = (trunc + 3 * align) | (0xC0 if two else 0)
    b4 = direction + 3 * lh + 12 * mult + 48 * flow
    b5 = scale | (8 if debug else 0) | (0x10 if bg else 0) | ((cancel + 5) << 5 if cancel is not None else 0)
    b6 = inset | (spacing << 2) | (lang << 5)
    b7 = 0xFE if feed else 0xFD if pgm else pixels | (0x40 if vertical else 0)
    return bytes([width, size, b2, b3, b4, b5, b6, b7])

def shapes(*records):
    """The exclusion shapes that start the body (FuzzCase.exclusions): up to 4 records."""
    return bytes([len(records) - 1]) + b"".join(records)

def at(units):
    """A coordinate byte: units of 1/160 of the width across, a fifth of the font size down;
    None for 10^6 points (the largest the library takes)."""
    return 255 if units is None else units + 32

def rect(x, y, w, h): return bytes([0, at(x), at(y), at(w), at(h)])
def circle(x, y, r): return bytes([1, at(x), at(y), at(r)])
def polygon(*points): return bytes([2 + 4 * len(points)] + [at(v) for p in points for v in p])
def band(y, h): return bytes([3, at(y), at(h)])

PARAGRAPH = "An avatar sits at the top left and the text flows around it: each line takes the widest free room beside it, 中文也一样。"

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
    # Units too wide for a line, cut over many lines: one of 400 pieces (the script changes at
    # every character), and one right-to-left word, letter-spaced in its second style.
    "long-unit-of-pieces": (header(width=20), "aα" * 200 + " end"),
    "long-rtl-word-spaced": (header(width=25, two=True, pixels=6 << 2), "א" * 300 + " שלום"),
    # Balanced lines, and a truncated text balance leaves alone.
    "balance-title": (header(width=150, size=150, align=2, flow=1), "City council approves new bike lanes after a long debate"),
    "balance-truncated": (header(width=60, lines=2, token=8, flow=1), PARAGRAPH),
    # Exclusion shapes: a circle, a rectangle and a triangle; degenerate ones (a radius of 0,
    # a negative width, polygons of 0 and 2 vertices); bands across the whole box (one of
    # 10^6 points); shapes with balance and start truncation over lines (refused pairs).
    "exclusions-around": (header(width=150, debug=True, flow=3) + shapes(circle(20, 20, 18), rect(120, 0, 40, 15),
                                                                           polygon((160, 40), (110, 60), (160, 80))), PARAGRAPH),
    "exclusions-degenerate": (header(width=100, flow=4) + shapes(circle(20, 20, 0), rect(0, 0, -5, 10), polygon(),
                                                                   polygon((0, 0), (50, 50))), PARAGRAPH),
    "exclusions-cover-box": (header(width=80, lh=2, flow=5) + shapes(band(0, 20), band(40, None), circle(None, 0, 4)), PARAGRAPH),
    "exclusions-balance-start": (header(width=120, lines=3, trunc=1, flow=2) + shapes(circle(100, 10, 30)), PARAGRAPH),
    "exclusions-unwrapped-rtl": (header(width=255, direction=2, align=4, flow=3) + shapes(rect(-10, -10, 60, 60), polygon((0, 0), (0, 0), (0, 0))),
                                 "مرحبا بالعالم\nשלום עולם " + PARAGRAPH),
    # Vertical columns: a poem in Japanese forms; mixed scripts justified and truncated, in
    # two styles; balanced columns; shapes (refused by name); right to left with start
    # truncation, insets and fixed line heights; unwrapped with attachments, cancelled.
    "vertical-poem": (header(width=100, size=150, lang=3, vertical=True), "静夜思\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。"),
    "vertical-mixed-justify-truncated": (header(width=60, lines=2, token=8, align=4, two=True, scale=5, vertical=True),
                                         "今天天气真好，我们去公园散步吧！Hello 2026 年 👋 「引号」（括号）……ｆｕｌｌ"),
    "vertical-balance": (header(width=80, align=2, lang=2, flow=1, vertical=True), PARAGRAPH),
    "vertical-exclusions-refused": (header(width=120, flow=3, vertical=True) + shapes(circle(20, 20, 18)), PARAGRAPH),
    "vertical-rtl-start-truncation": (header(width=40, direction=2, lines=3, trunc=1, token=10, inset=2, spacing=3, lh=3,
                                             vertical=True), "مرحبا بالعالم 中文竖排 שלום 123 かな、カナ。"),
    "vertical-unwrapped-attachments": (header(width=255, cancel=0, pixels=0x80, bg=True, vertical=True),
                                       "图片\ufffc在这里\ufffc文字 abc\n第二段\ufffc"),
}

SANS, BOLD, CJK, EMOJI = range(4)
TABLES = ["cmap", "glyf", "loca", "GSUB", "GPOS", "GDEF", "hmtx", "hhea", "head", "maxp",
          "CBDT", "CBLC", "post", "OS/2", "CFF ", "name", "kern", "fpgm", "prep", "cvt "]
OPS = ["flip", "set16", "zero", "cut", "length", "move", "rename", "truncate", "glyph", "tables", "swap"]

def damage(op, table="cmap", at=0, v0=0, v1=0, v2=0):
    """One damage of FontDamage.swift: `at` is a position within the table (or a fraction
    of 2^24 of its length or of the file, for cut and truncate)."""
    return bytes([OPS.index(op), TABLES.index(table), at >> 16 & 0xFF, at >> 8 & 0xFF, at & 0xFF, v0, v1, v2])

def font_case(font, damages, text="", size=48, width=100, lines=0, direction=0, trunc=0, lang=0):
    """size: 4 + size/4 points; width: 16 + 2×width points; text "" is the fuzzer's sample."""
    head = bytes([font, len(damages), size, width, lines | direction << 2 | trunc << 4 | lang << 6])
    return head + b"".join(damages) + text.encode("utf-8")

FONT_CASES = {
    "sans-intact": font_case(SANS, []),
    "sans-cmap-flip": font_case(SANS, [damage("flip", "cmap", 300, 0x55, 2)], "Hello, мир"),
    "sans-glyph-outline": font_case(SANS, [damage("glyph", "glyf", 7, 0, 1, 0x81), damage("glyph", "glyf", 2, 1, 0, 2)], "Ag"),
    "sans-hmtx-advance": font_case(SANS, [damage("glyph", "hmtx", 0, 3, 0, 2)], "wide words here", width=40, lines=2),
    "sans-gsub-zeroed": font_case(SANS, [damage("zero", "GSUB", 0)], "مرحبا بالعالم", direction=2, lang=2),
    "sans-gpos-cut": font_case(SANS, [damage("cut", "GPOS", 0x400000)], "AVATAR Te ﬁ"),
    "sans-head-set": font_case(SANS, [damage("set16", "head", 18, 0)], "upem"),
    "sans-maxp-hhea": font_case(SANS, [damage("set16", "maxp", 4, 2), damage("set16", "hhea", 34, 0)]),
    "sans-directory": font_case(SANS, [damage("move", "loca", 0, 4, 3), damage("swap", "post", 0, 0, 5)], "x"),
    "bold-loca-length": font_case(BOLD, [damage("length", "loca", 0, 3), damage("tables", "cmap", 0, 1)], "Bold"),
    "bold-renamed-cmap": font_case(BOLD, [damage("rename", "cmap", 0, 0)], "fallback", trunc=1, lines=1),
    "cjk-cff-flip": font_case(CJK, [damage("flip", "CFF ", 5000, 0xFF, 3)], "中文排版，「测试」。", lang=1),
    "cjk-truncated": font_case(CJK, [damage("truncate", "cmap", 0xC00000)], "かな漢字"),
    "emoji-cbdt-flip": font_case(EMOJI, [damage("flip", "CBDT", 123456, 0x10, 3)], "👋🏽❤️", size=120),
    "emoji-cblc-cut": font_case(EMOJI, [damage("cut", "CBLC", 0x800000)], "😀 ok"),
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
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus-fonts")
    os.makedirs(folder, exist_ok=True)
    for name, data in FONT_CASES.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
