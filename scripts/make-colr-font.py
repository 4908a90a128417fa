#!/usr/bin/python3
"""Writes Tests/TextKitLiteTests/Fixtures/ColorLayers.ttf: a tiny TrueType font with COLRv0
color glyphs, for the tests of Font.colorLayers(of:) (ColorGlyphTests). Every outline is
drawn here (rectangles and a triangle); nothing is copied from another font.

Glyphs, in glyph-ID order (the tests name them by ID):
  0 .notdef   1 space (U+0020)   2 A (U+0041, an ordinary outline glyph)
  3 square (U+E000): the color glyph; its own outline is the big square, for renderers
    without COLR. Its COLR layers, painted bottom first:
      4 square.big    palette entry 0  #e0301a (opaque red)
      5 square.mid    palette entry 1  #20a040 (opaque green)
      6 square.small  palette entry 2  #1030c0, alpha 0x80 (half-transparent blue)
      7 dot           0xFFFF           the text's foreground ink
CPAL has two palettes: 0 above, 1 the same entries in other colors (the tests check that
palette 0 is the one read).

Needs Debian's python3-fonttools (scripts/setup.sh --test installs it), hence the
/usr/bin/python3 above rather than whatever python3 comes first on PATH.
Usage: scripts/make-colr-font.py [OUTPUT]   (default: the fixtures folder)
The output is deterministic: the head table's dates are fixed, so a rerun writes the same bytes.
"""
import datetime
import pathlib
import sys

from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

TARGET = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "TextKitLiteTests" / "Fixtures" / "ColorLayers.ttf"
UNITS_PER_EM = 1000
# The head table's dates, in seconds since its epoch (1904-01-01): fixed, for the same bytes.
FIXED_DATE = int((datetime.datetime(2024, 1, 1) - datetime.datetime(1904, 1, 1)).total_seconds())

# Palette colors as bytes (red, green, blue, alpha), straight alpha as CPAL stores them.
PALETTE_0 = [(0xE0, 0x30, 0x1A, 0xFF), (0x20, 0xA0, 0x40, 0xFF), (0x10, 0x30, 0xC0, 0x80)]
PALETTE_1 = [(0x00, 0x00, 0x00, 0xFF), (0xFF, 0xFF, 0xFF, 0xFF), (0x80, 0x80, 0x80, 0xFF)]
FOREGROUND = 0xFFFF


def polygon(points):
    pen = TTGlyphPen(None)
    if points:
        pen.moveTo(points[0])
        for point in points[1:]:
            pen.lineTo(point)
        pen.closePath()
    return pen.glyph()


def rectangle(x0, y0, x1, y1):
    # Clockwise, as TrueType fills outer contours.
    return polygon([(x0, y0), (x0, y1), (x1, y1), (x1, y0)])


def main():
    target = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else TARGET
    glyphs = {
        ".notdef": polygon([]),
        "space": polygon([]),
        "A": polygon([(50, 0), (300, 700), (550, 0)]),
        "square": rectangle(100, 0, 900, 800),
        "square.big": rectangle(100, 0, 900, 800),
        "square.mid": rectangle(250, 150, 750, 650),
        "square.small": rectangle(400, 300, 600, 500),
        "dot": rectangle(475, 375, 525, 425),
    }
    advances = {".notdef": 500, "space": 300, "A": 600}
    builder = FontBuilder(UNITS_PER_EM, isTTF=True)
    builder.setupGlyphOrder(list(glyphs))
    builder.setupCharacterMap({0x20: "space", 0x41: "A", 0xE000: "square"})
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics(
        {name: (advances.get(name, 1000), glyph.xMin if glyph.numberOfContours else 0)
         for name, glyph in ((name, builder.font["glyf"][name]) for name in glyphs)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "ColorLayers Test", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, sTypoLineGap=0,
                     usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.font["COLR"] = buildCOLR(
        {"square": [("square.big", 0), ("square.mid", 1), ("square.small", 2), ("dot", FOREGROUND)]},
        version=0)
    builder.font["CPAL"] = buildCPAL(
        [[tuple(channel / 255 for channel in color) for color in palette] for palette in (PALETTE_0, PALETTE_1)])
    builder.updateHead(created=FIXED_DATE, modified=FIXED_DATE)
    builder.save(str(target))
    print(f"wrote {target} ({target.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
