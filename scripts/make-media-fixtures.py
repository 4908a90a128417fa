#!/usr/bin/python3
"""Writes the picture fixtures of MediaTests into Tests/TextKitLiteTests/Fixtures/media/.

Every image is drawn here (flat colored quadrants, gradients, a checkerboard); JPEGs are
encoded by PIL (python3-pil, which scripts/setup.sh --test installs), EXIF blocks and the
damaged files are built byte by byte with the standard library.

The quadrants image (64 × 48 as displayed): top left red, top right green, bottom left blue,
bottom right yellow (QUADRANTS below); the tests check a point inside each quadrant.

  baseline.jpg        the quadrants, baseline JPEG (YCbCr)
  progressive.jpg     the quadrants, progressive JPEG
  gray.jpg            the quadrants in gray (a one-component JPEG)
  cmyk.jpg            the quadrants as CMYK (PIL writes Adobe's inverted CMYK and an APP14 marker)
  orientation-N.jpg   N = 2…8: stored so that EXIF orientation N displays the quadrants;
                      odd N with a little-endian ("II") TIFF block, even N big-endian ("MM")
  exif-broken.jpg     the quadrants with an EXIF block whose IFD offset runs past its end
  big.jpg             256 × 192 gradient (for DCT scaling)
  truncated.jpg       baseline.jpg cut in the middle of its scan
  corrupt.jpg         baseline.jpg with part of its scan replaced by stuffed FF bytes
                      (16 one-bits in a row: never a valid Huffman code)
  bomb.jpg            baseline.jpg whose frame header says 65000 × 65000
  bomb.png            a PNG whose IHDR says 100000 × 100000 (valid CRCs, one tiny IDAT)
  checker.png         16 × 16 gray, 1-pixel black and white checkerboard
  checker-png.jpg     checker.png under a JPEG name (the format is told by signature)
  not-an-image.jpg    text under a JPEG name

Usage: scripts/make-media-fixtures.py [OUTPUT_DIRECTORY]
PIL's output is deterministic for a given PIL and libjpeg; the files are committed.
"""
import io
import os
import struct
import sys
import zlib

from PIL import Image, ImageOps

QUADRANTS = {  # name: (RGB, box as displayed)
    "top-left": ((220, 30, 30), (0, 0, 32, 24)),
    "top-right": ((30, 200, 40), (32, 0, 64, 24)),
    "bottom-left": ((30, 40, 210), (0, 24, 32, 48)),
    "bottom-right": ((240, 220, 30), (32, 24, 64, 48)),
}
# The stored image whose EXIF orientation N displays a given image: the inverse of the
# transform that orientation N applies (6 and 8 are each other's inverse; the rest are
# their own).
INVERSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def quadrants():
    image = Image.new("RGB", (64, 48))
    for color, box in QUADRANTS.values():
        image.paste(color, box)
    return image


def jpeg(image, quality=92, **options):
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, **options)
    return out.getvalue()


def exif(orientation, big_endian, ifd_offset=8):
    """An APP1 EXIF payload: "Exif\\0\\0", then a TIFF header and IFD0 with one entry,
    the orientation (tag 0x0112, SHORT, count 1)."""
    order = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, ifd_offset)
    tiff += struct.pack(order + "H", 1)
    tiff += struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(order + "I", 0)
    return b"Exif\x00\x00" + tiff


def scan_start(data):
    """The offset of the first byte after the SOS segment."""
    offset = 2
    while True:
        assert data[offset] == 0xFF
        marker, length = data[offset + 1], struct.unpack(">H", data[offset + 2:offset + 4])[0]
        if marker == 0xDA:
            return offset + 2 + length
        offset += 2 + length


def with_size(data, width, height):
    """A JPEG whose SOF0 (baseline frame header) declares width × height."""
    offset = 2
    while True:
        marker, length = data[offset + 1], struct.unpack(">H", data[offset + 2:offset + 4])[0]
        if marker == 0xC0:
            return data[:offset + 5] + struct.pack(">HH", height, width) + data[offset + 9:]
        offset += 2 + length


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, color_type, raw_rows):
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", zlib.compress(raw_rows, 9)) + png_chunk(b"IEND", b""))


def close(a, b, tolerance=12):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def check_orientation(data):
    """The file, decoded by PIL with its EXIF orientation applied, shows the quadrants."""
    shown = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")
    assert shown.size == (64, 48), shown.size
    for color, (left, top, right, bottom) in QUADRANTS.values():
        pixel = shown.getpixel(((left + right) // 2, (top + bottom) // 2))
        assert close(pixel, color), (pixel, color)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "Tests", "TextKitLiteTests", "Fixtures", "media")
    directory = sys.argv[1] if len(sys.argv) > 1 else default
    os.makedirs(directory, exist_ok=True)
    files = {}
    image = quadrants()
    files["baseline.jpg"] = jpeg(image)
    files["progressive.jpg"] = jpeg(image, progressive=True)
    files["gray.jpg"] = jpeg(image.convert("L"))
    files["cmyk.jpg"] = jpeg(image.convert("CMYK"))
    for orientation, inverse in INVERSE.items():
        data = jpeg(image.transpose(inverse), exif=exif(orientation, big_endian=orientation % 2 == 0))
        check_orientation(data)
        files[f"orientation-{orientation}.jpg"] = data
    files["exif-broken.jpg"] = jpeg(image, exif=exif(6, big_endian=False, ifd_offset=5000))

    gradient = Image.new("RGB", (256, 192))
    gradient.putdata([(x, y, (x + y) // 2) for y in range(192) for x in range(256)])
    files["big.jpg"] = jpeg(gradient, quality=75)

    baseline = files["baseline.jpg"]
    start = scan_start(baseline)
    middle = (start + len(baseline)) // 2
    files["truncated.jpg"] = baseline[:middle]
    files["corrupt.jpg"] = baseline[:middle] + b"\xff\x00" * 60 + baseline[middle + 120:]
    files["bomb.jpg"] = with_size(baseline, 65000, 65000)

    files["bomb.png"] = png(100000, 100000, 0, b"\x00\x00")
    checker = bytes(b for y in range(16) for b in [0] + [255 * ((x + y) % 2) for x in range(16)])
    files["checker.png"] = png(16, 16, 0, checker)
    files["checker-png.jpg"] = files["checker.png"]
    files["not-an-image.jpg"] = b"This is text, not a picture.\n"

    for name, data in sorted(files.items()):
        with open(os.path.join(directory, name), "wb") as out:
            out.write(data)
    total = sum(len(data) for data in files.values())
    print(f"wrote {len(files)} files, {total} bytes, into {os.path.normpath(directory)}")


if __name__ == "__main__":
    main()
