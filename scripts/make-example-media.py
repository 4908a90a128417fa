#!/usr/bin/python3
"""Builds examples/media: the pictures and avatars of examples/photo-feed.jsonl.

Pictures are photographs from Debian's plasma-workspace-wallpapers package (LGPL-3, see
examples/media/LICENSE.md), cropped and scaled down; avatars are crops of them and initials
drawn with the bundled fonts. Needs python3-pil (Debian). Usage, from the repository root:

    apt-get download plasma-workspace-wallpapers && dpkg-deb -x plasma-workspace-wallpapers_*.deb /tmp/plasma
    scripts/make-example-media.py /tmp/plasma/usr/share/wallpapers

Deterministic for the same input files and Pillow version.
"""
import os
import sys

from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "examples", "media")


def source(wallpapers, name):
    """The wallpaper's 1920 × 1080 image, or its only one (ColorfulCups has 2560 × 1600 alone)."""
    folder = os.path.join(wallpapers, name, "contents", "images")
    files = sorted(os.listdir(folder))
    return Image.open(os.path.join(folder, "1920x1080.jpg" if "1920x1080.jpg" in files else files[-1])).convert("RGB")


def crop(image, box_fraction, size):
    """Crops a box given as fractions (left, top, right, bottom) and scales it to size."""
    w, h = image.size
    left, top, right, bottom = box_fraction
    return image.crop((round(left * w), round(top * h), round(right * w), round(bottom * h))).resize(size, Image.LANCZOS)


def save_jpeg(image, name, exif=None, **options):
    path = os.path.join(OUT, "pictures", name)
    if exif is not None:
        options["exif"] = exif
    image.save(path, "JPEG", quality=80, optimize=True, **options)


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def pictures(wallpapers):
    os.makedirs(os.path.join(OUT, "pictures"), exist_ok=True)
    whole = (0, 0, 1, 1)
    # Landscapes, 16:9.
    for name, wallpaper in [("leaf.jpg", "FallenLeaf"), ("boats.jpg", "EveningGlow"), ("forest-path.jpg", "Path"),
                            ("deck.jpg", "BytheWater"), ("dawn.jpg", "summer_1am"), ("kite.jpg", "Kite"),
                            ("moss.jpg", "OneStandsOut"), ("blue-hour.jpg", "DarkestHour")]:
        save_jpeg(crop(source(wallpapers, wallpaper), whole, (800, 450)), name)
    # A progressive JPEG, squares and a gray (one-component) JPEG.
    save_jpeg(crop(source(wallpapers, "ColorfulCups"), (0.2, 0, 0.76, 1), (600, 600)), "cups.jpg", progressive=True)
    save_jpeg(crop(source(wallpapers, "EveningGlow"), (0.05, 0.45, 0.45, 1), (600, 600)), "boats-close.jpg")
    save_jpeg(crop(source(wallpapers, "ColdRipple"), whole, (800, 450)).convert("L"), "pier.jpg")
    # Portraits: one stored upright, one stored on its side with EXIF orientation 6 (a
    # camera held upright: shown rotated 90° clockwise), one very tall (cropped to 1:3).
    save_jpeg(crop(source(wallpapers, "Autumn"), (0.3, 0, 0.7, 1), (540, 720)), "autumn-tree.jpg")
    upright = crop(source(wallpapers, "Path"), (0.34, 0, 0.66, 1), (540, 900))
    save_jpeg(upright.transpose(Image.ROTATE_90), "forest-rotated.jpg", exif=exif_orientation(6))
    save_jpeg(crop(source(wallpapers, "FallenLeaf"), (0.45, 0, 0.6, 1), (300, 1100)), "leaf-strip.jpg")
    # A PNG picture (RGB).
    crop(source(wallpapers, "Grey"), (0.1, 0.1, 0.9, 0.9), (600, 360)).save(
        os.path.join(OUT, "pictures", "facade.png"), "PNG", optimize=True)


def avatars(wallpapers):
    os.makedirs(os.path.join(OUT, "avatars"), exist_ok=True)
    size = (240, 240)
    # Photo avatars.
    for name, wallpaper, box in [("leaf.jpg", "FallenLeaf", (0.5, 0.15, 0.78, 0.65)), ("cups.jpg", "ColorfulCups", (0.3, 0.2, 0.6, 0.73)),
                                 ("kite.jpg", "Kite", (0.55, 0.2, 0.8, 0.64)), ("sunset.jpg", "EveningGlow", (0.3, 0, 0.6, 0.53))]:
        crop(source(wallpapers, wallpaper), box, size).save(os.path.join(OUT, "avatars", name), "JPEG", quality=85, optimize=True)
    # Initials on a two-tone background, as apps draw for people without a photo.
    latin = ImageFont.truetype(os.path.join(ROOT, "fonts", "DejaVuSans-Bold.ttf"), 104)
    cjk = ImageFont.truetype(os.path.join(ROOT, "fonts", "NotoSansSC-Subset.otf"), 112)
    for name, text, top, bottom in [("mia.png", "M", (255, 138, 101), (236, 64, 122)), ("lin.png", "林", (77, 182, 172), (0, 121, 107)),
                                    ("omar.png", "O", (121, 134, 203), (57, 73, 171)), ("hu.png", "湖", (255, 202, 40), (245, 124, 0))]:
        image = Image.new("RGB", size)
        draw = ImageDraw.Draw(image)
        for y in range(size[1]):
            t = y / (size[1] - 1)
            draw.line([(0, y), (size[0], y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom)))
        font = cjk if ord(text[0]) > 0x2E80 else latin
        draw.text((size[0] / 2, size[1] / 2), text, font=font, fill="white", anchor="mm")
        image.save(os.path.join(OUT, "avatars", name), "PNG", optimize=True)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    pictures(sys.argv[1])
    avatars(sys.argv[1])


if __name__ == "__main__":
    main()
