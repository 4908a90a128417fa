#!/usr/bin/env python3
"""Rebuild fonts/NotoSansSC-Subset.otf from Debian's fonts-noto-cjk.

Keeps face 2 (Simplified Chinese) of NotoSansCJK-Regular.ttc, restricted to the
6,763 hanzi of GB 2312, kana, CJK symbols and punctuation, fullwidth forms,
general punctuation and ASCII, with all OpenType layout features.
Needs: apt-get install fonts-noto-cjk; pip install fonttools.
"""
import subprocess, sys, pathlib

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
TARGET = pathlib.Path(__file__).resolve().parent.parent / "fonts" / "NotoSansSC-Subset.otf"

def gb2312_hanzi():
    out = set()
    for b1 in range(0xB0, 0xF8):
        for b2 in range(0xA1, 0xFF):
            try:
                out.add(ord(bytes([b1, b2]).decode("gb2312")))
            except UnicodeDecodeError:
                pass
    return out

ranges = [(0x20, 0x7E), (0xA0, 0xFF), (0x2000, 0x206F), (0x2190, 0x21FF), (0x2460, 0x24FF),
          (0x25A0, 0x25FF), (0x2600, 0x26FF), (0x3000, 0x30FF), (0x3200, 0x32FF),
          (0xFE30, 0xFE4F), (0xFF00, 0xFFEF)]
codepoints = gb2312_hanzi()
for lo, hi in ranges:
    codepoints.update(range(lo, hi + 1))
unicodes = ",".join(f"U+{c:04X}" for c in sorted(codepoints))
subprocess.run([sys.executable, "-m", "fontTools.subset", SOURCE, "--font-number=2",
                f"--unicodes={unicodes}", "--layout-features=*", "--name-IDs=*",
                "--name-languages=*", "--notdef-outline", f"--output-file={TARGET}"], check=True)
print(TARGET, TARGET.stat().st_size)
