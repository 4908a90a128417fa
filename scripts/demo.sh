#!/usr/bin/env bash
# Installs what is missing, builds textrender, and renders a mixed Chinese / English /
# emoji / Arabic / Hebrew paragraph to out/sample.png (color: color emoji, blue links, dark
# text on white) with the bundled fonts, and the same in the dark colors to out/sample-dark.png;
# a headline broken greedily and balanced to out/title-greedy.png and out/title-balance.png;
# a Chinese poem set vertically to out/vertical-poem.png;
# then the cells of examples/photo-feed.jsonl (avatars and pictures) to out/photos/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh
swift build -c release --product textrender
mkdir -p out
sample='TextKitLite 把文字排版带到 Linux：HarfBuzz shaping, ICU line breaking, FreeType glyphs 🎉👍🏽. العربية تتصل حروفها، ועברית נכתבת מימין לשמאל. “全文”见下，#话题# @someone https://example.com/a/very/long/path'
.build/release/textrender render "$sample" --width 320 --scale 2 --highlight --color '#0f1419' \
    --emoticons examples/emoticons/emoticons.json --output out/sample.png --json > out/sample.json
.build/release/textrender render "$sample" --width 320 --scale 2 --highlight --color '#f7f9f9' --background '#15202b' \
    --output out/sample-dark.png
# A headline in 300 points: greedy lines (a lone word last), and balanced (--balance).
title='City council approves new bike lanes after a long debate'
title_options=(--width 300 --font-size 28 --weight bold --align center --scale 2)
.build/release/textrender render "$title" "${title_options[@]}" --output out/title-greedy.png
.build/release/textrender render "$title" "${title_options[@]}" --balance --output out/title-balance.png
# Text around a circle at the top left (an avatar: --exclude), the circle shown by --debug.
around='An avatar sits at the top left and the text flows around it: each line takes the widest free room beside the circle, its first lines start where the circle ends, and once the line is below it the text runs the full width again. 文字绕开头像排版，和 YYText 的 exclusionPaths 一样。'
.build/release/textrender render "$around" --width 300 --scale 2 --exclude circle:40,40,36 --debug --output out/around-circle.png
echo "wrote out/around-circle.png (text around a circle)"
# A Chinese poem set vertically: columns right to left, its punctuation in vertical forms,
# the Latin line turned sideways.
.build/release/textrender render $'静夜思\n李白\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n“Quiet Night Thoughts”' \
    --vertical --width 330 --font-size 24 --inset 12 --scale 2 --output out/vertical-poem.png
# Hyphenation: an English paragraph in a 120 pt column, words cut at libhyphen's points.
.build/release/textrender render "Typographers appreciate hyphenation: internationalization, characteristically \
extraordinary vocabulary and unquestionably representative paragraphs fill narrow columns evenly." \
    --width 120 --hyphenate --scale 2 --output out/hyphenated.png
# A feed with avatars and photographs, drawn as cells (PNG) with their layouts.jsonl.
rm -rf out/photos
.build/release/textrender feed examples/photo-feed.jsonl --out out/photos --now 2026-11-28T22:00:00Z --separator
# A variable weight ramp: one line of Inter's variable font at five values of its wght axis.
inter=/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf
[ -f "$inter" ] || scripts/setup.sh --test  # installs fonts-inter-variable
mkdir -p out/weight-ramp
for weight in 100 300 500 700 900; do
    .build/release/textrender render "wght $weight · Variable type, one file 0123" --font "$inter" --variations "wght=$weight" \
        --font-size 26 --width 560 --scale 2 --output "out/weight-ramp/wght-$weight.png"
done
echo "wrote out/weight-ramp/wght-{100,300,500,700,900}.png (Inter at five weights of one variable font)"
echo "wrote out/sample.png, out/sample-dark.png, out/sample.json, out/hyphenated.png, out/title-greedy.png and out/title-balance.png (a headline" \
    "as greedy and balanced lines), out/vertical-poem.png (vertical Chinese) and out/photos/ (feed cells with pictures)"
