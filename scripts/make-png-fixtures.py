#!/usr/bin/env python3
"""Writes the PNG test fixtures (Tests/TextKitLiteTests/Fixtures/png/) with the Python
standard library only (zlib, struct), so that the decoder is tested against files that no
part of libpng wrote. Every file is a few pixels whose values PNGTests checks exactly.

Usage: scripts/make-png-fixtures.py [DIR]   (default: the fixtures folder)
The output is deterministic: running it again rewrites the same bytes.
"""
import os
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def ihdr(width, height, depth, color, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace))


def pack_row(samples, depth):
    """Samples of one row as bytes: big-endian 16-bit, 8-bit, or bits packed high first."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    per_byte = 8 // depth
    out = bytearray()
    for i in range(0, len(samples), per_byte):
        byte = 0
        group = samples[i:i + per_byte]
        for j, s in enumerate(group):
            byte |= s << (8 - depth * (j + 1))
        out.append(byte)
    return bytes(out)


def png(width, height, depth, color, rows, extra=b"", interlace=0):
    """rows: one list of samples per row (channels interleaved)."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    if interlace:
        # Adam7: seven reduced images, each row filtered on its own (filter 0 here).
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b""
        for x0, y0, dx, dy in passes:
            xs = range(x0, width, dx)
            if not xs:
                continue
            for y in range(y0, height, dy):
                samples = [rows[y][x * channels + c] for x in xs for c in range(channels)]
                raw += b"\x00" + pack_row(samples, depth)
    else:
        raw = b"".join(b"\x00" + pack_row(row, depth) for row in rows)
    return (SIGNATURE + ihdr(width, height, depth, color, interlace) + extra
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def fixtures():
    files = {}
    # Gray, 8 bits: 4 × 2.
    files["gray8.png"] = png(4, 2, 8, 0, [[0, 64, 128, 255], [1, 2, 254, 253]])
    # Gray, 1 bit: 8 × 1, expanded to 0 and 255.
    files["gray1.png"] = png(8, 1, 1, 0, [[1, 0, 1, 1, 0, 0, 1, 0]])
    # Gray, 8 bits, tRNS makes level 64 transparent.
    files["gray8-trns.png"] = png(3, 1, 8, 0, [[0, 64, 200]], chunk(b"tRNS", struct.pack(">H", 64)))
    # Gray and alpha, 8 bits: 3 × 1.
    files["gray-alpha8.png"] = png(3, 1, 8, 4, [[10, 0, 128, 128, 250, 255]])
    # RGB, 8 bits: red, green, blue, white, mid gray.
    files["rgb8.png"] = png(5, 1, 8, 2, [[255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 90, 90, 90]])
    # RGBA, 8 bits: 2 × 2.
    files["rgba8.png"] = png(2, 2, 8, 6, [[255, 0, 0, 255, 0, 255, 0, 128], [0, 0, 255, 0, 40, 80, 120, 200]])
    # Palette, 2 bits, four entries; tRNS: entry 0 transparent, entry 1 half.
    palette = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
    files["palette2-trns.png"] = png(
        5, 1, 2, 3, [[0, 1, 2, 3, 1]], chunk(b"PLTE", palette) + chunk(b"tRNS", bytes([0, 128])))
    # Gray, 16 bits: 257 × k is exactly k in 8 bits; 0x1234 = 4660 ≈ 18.13 × 257.
    files["gray16.png"] = png(3, 1, 16, 0, [[0, 257 * 200, 0x1234]])
    # RGBA, 16 bits: one red pixel at alpha 0x8080 (128), one white at alpha 65535.
    files["rgba16.png"] = png(2, 1, 16, 6, [[65535, 0, 0, 0x8080, 65535, 65535, 65535, 65535]])
    # RGB, 16 bits: 0x8080 is 128 in 8 bits, 0x1234 = 4660 ≈ 18.13 × 257, 0xFF7F ≈ 254.5 × 257.
    files["rgb16.png"] = png(2, 1, 16, 2, [[65535, 0x8080, 0, 0x1234, 0xFF7F, 257 * 3]])
    # RGB, 8 bits, tRNS makes (10, 20, 30) transparent: (10, 20, 31) stays opaque.
    files["rgb8-trns.png"] = png(3, 1, 8, 2, [[10, 20, 30, 10, 20, 31, 200, 100, 50]],
                                 chunk(b"tRNS", struct.pack(">HHH", 10, 20, 30)))
    # Palette, 8 bits, three entries, no tRNS: every pixel opaque.
    files["palette8.png"] = png(
        4, 1, 8, 3, [[2, 0, 1, 2]], chunk(b"PLTE", bytes([12, 34, 56, 78, 90, 123, 250, 5, 128])))
    # Interlaced (Adam7) RGB, 9 × 9, and the same pixels not interlaced.
    rows = [[(x * 29 + y * 7 + c * 50) % 256 for x in range(9) for c in range(3)] for y in range(9)]
    files["rgb8-interlaced.png"] = png(9, 9, 8, 2, rows, interlace=1)
    files["rgb8-progressive.png"] = png(9, 9, 8, 2, rows)

    # Broken files.
    good = files["gray8.png"]
    files["not-a-png.png"] = b"GIF89a, or anything else that is not a PNG\n"
    # Cut in the middle of the IDAT chunk.
    idat = good.index(b"IDAT")
    files["truncated.png"] = good[:idat + 10]
    # IDAT's CRC flipped.
    crc_at = idat + 4 + struct.unpack(">I", good[idat - 4:idat])[0]
    files["bad-crc.png"] = good[:crc_at] + bytes([good[crc_at] ^ 0xFF]) + good[crc_at + 1:]
    # IDAT with a valid CRC whose zlib stream is garbage.
    files["corrupt-data.png"] = (SIGNATURE + ihdr(4, 2, 8, 0) + chunk(b"IDAT", b"\x78\x9c not deflate at all")
                                 + chunk(b"IEND", b""))
    # IHDR claims 100000 × 100000 pixels (10^10); no pixel data follows.
    files["huge.png"] = SIGNATURE + ihdr(100000, 100000, 8, 0) + chunk(b"IEND", b"")
    return files


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "Tests", "TextKitLiteTests", "Fixtures", "png")
    os.makedirs(folder, exist_ok=True)
    for name, data in sorted(fixtures().items()):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
