#!/usr/bin/env bash
# Makes examples/emoticons/: one 64 × 64 gray + alpha PNG per Weibo-style code, drawn from the
# bundled Noto Color Emoji font (fonts/NotoColorEmoji.ttf, SIL OFL 1.1) by the project's own
# `textrender render`, and emoticons.json mapping each code to its image.
#
# textrender draws on white only, so alpha is reconstructed from that one render: the white
# reached from the image's border is background (alpha 0), everything it encloses is opaque,
# and each pixel on the boundary between them is un-mixed from the white as
# alpha = (255 − value) / (255 − inside), gray = inside, with `inside` the mean of the opaque
# pixels near it. Exact for the outline's antialiasing where the emoji's edge is uniform in
# color (Noto's faces, hearts and hands). A hole (the ring of 👌) would stay opaque white, so
# the table has no emoji with one.
#
# Usage: scripts/make-emoticons.sh [OUTPUT_DIR]   (default: examples/emoticons)
# Needs python3 (standard library only); builds textrender when .build/debug has none.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/examples/emoticons}"
textrender="${TEXTRENDER:-$root/.build/debug/textrender}"
if [ ! -x "$textrender" ]; then
    (cd "$root" && swift build --product textrender >&2)
fi
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# code, file name, emoji (Weibo's meaning in the comment where the code alone does not say).
emoticons=(
    "[微笑]" smile "🙂"
    "[哈哈]" haha "😆"
    "[爱你]" love-you "😍"
    "[泪]" tears "😢"
    "[偷笑]" snicker "🤭"
    "[怒]" angry "😡"
    "[赞]" thumbs-up "👍"
    "[心]" heart "❤️"
    "[鼓掌]" applause "👏"
    "[晕]" dizzy "😵"
    "[酷]" cool "😎"
    "[思考]" thinking "🤔"
    "[哭]" cry "😭"
    "[嘻嘻]" grin "😁"
    "[生病]" sick "😷"
    "[吃惊]" shocked "😲"
    "[笑cry]" laugh-cry "😂"
    "[害羞]" shy "😊"
    "[可怜]" pitiful "🥺"
    "[汗]" sweat "😓"
    "[拜拜]" bye "👋"
    "[耶]" victory "✌️"
    "[加油]" strong "💪"
    "[doge]" doge "🐶"
)

# The largest font size at which every emoji here fits 64 × 64 pixels at scale 1 (up to 62 × 61);
# the inset keeps white all round, where the background fill starts.
size=53
for ((i = 0; i < ${#emoticons[@]}; i += 3)); do
    name="${emoticons[i + 1]}"
    "$textrender" render "${emoticons[i + 2]}" --font "$root/fonts/NotoColorEmoji.ttf" \
        --font-size "$size" --width inf --inset 4 --output "$work/$name.pgm"
done

python3 - "$work" "$out" "${emoticons[@]}" <<'PYTHON'
import json
import os
import struct
import sys
import zlib

work, out, entries = sys.argv[1], sys.argv[2], sys.argv[3:]
SIDE = 64


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields = data.split(None, 4)
    assert fields[0] == b"P5" and fields[3] == b"255", path
    width, height = int(fields[1]), int(fields[2])
    pixels = data[len(data) - width * height:]
    return width, height, pixels


def unmix(width, height, white):
    """Gray and alpha planes from a render on white (see the header of this script)."""
    background = [False] * (width * height)
    stack = [i for i in range(width * height)
             if (i % width in (0, width - 1) or i // width in (0, height - 1)) and white[i] >= 254]
    for i in stack:
        background[i] = True
    while stack:
        i = stack.pop()
        x, y = i % width, i // width
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            j = ny * width + nx
            if 0 <= nx < width and 0 <= ny < height and not background[j] and white[j] >= 254:
                background[j] = True
                stack.append(j)

    def neighbours(x, y, radius):
        for ny in range(max(0, y - radius), min(height, y + radius + 1)):
            for nx in range(max(0, x - radius), min(width, x + radius + 1)):
                yield ny * width + nx

    edge = [not background[i] and any(background[j] for j in neighbours(i % width, i // width, 1))
            for i in range(width * height)]
    gray, alpha = bytearray(white), bytearray(width * height)
    for i in range(width * height):
        if background[i]:
            continue
        alpha[i] = 255
        if not edge[i]:
            continue
        inside = [white[j] for j in neighbours(i % width, i // width, 2) if not background[j] and not edge[j]]
        if not inside:
            continue
        c = sum(inside) / len(inside)
        if 255 - c > 16 and white[i] > c:
            alpha[i] = max(0, min(255, round(255 * (255 - white[i]) / (255 - c))))
            gray[i] = round(c)
    return gray, alpha


def crop_to_square(width, height, gray, alpha):
    """The opaque part's bounding box, centred on a SIDE × SIDE canvas."""
    xs = [i % width for i in range(width * height) if alpha[i]]
    ys = [i // width for i in range(width * height) if alpha[i]]
    x0, x1, y0, y1 = min(xs), max(xs) + 1, min(ys), max(ys) + 1
    assert x1 - x0 <= SIDE and y1 - y0 <= SIDE, f"{x1 - x0} × {y1 - y0} does not fit {SIDE}"
    left, top = (SIDE - (x1 - x0)) // 2, (SIDE - (y1 - y0)) // 2
    g, a = bytearray([255] * SIDE * SIDE), bytearray(SIDE * SIDE)
    for y in range(y0, y1):
        for x in range(x0, x1):
            k = (y - y0 + top) * SIDE + (x - x0 + left)
            g[k], a[k] = gray[y * width + x], alpha[y * width + x]
    return g, a


def write_png(path, gray, alpha):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + bytes(v for x in range(SIDE) for v in (gray[y * SIDE + x], alpha[y * SIDE + x]))
                   for y in range(SIDE))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIDE, SIDE, 8, 4, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


table = []
for k in range(0, len(entries), 3):
    code, name, emoji = entries[k:k + 3]
    width, height, white = read_pgm(os.path.join(work, name + ".pgm"))
    gray, alpha = crop_to_square(width, height, *unmix(width, height, white))
    write_png(os.path.join(out, name + ".png"), gray, alpha)
    table.append({"code": code, "image": name + ".png", "size": 1.0, "emoji": emoji})

with open(os.path.join(out, "emoticons.json"), "w", encoding="utf-8") as f:
    f.write('{"emoticons": [\n')
    f.write(",\n".join("  " + json.dumps(entry, ensure_ascii=False) for entry in table))
    f.write("\n]}\n")
print(f"make-emoticons: {len(table)} emoticons in {out}", file=sys.stderr)
PYTHON
