#!/usr/bin/env bash
# A hostile pass over the built `textrender` and `textrender-server`, as an attacker or a
# careless user would try them: numbers at their extremes, hostile texts, damaged and
# special files, bad feeds, failing outputs, and HTTP requests that lie, stall or flood.
# Every case must end within its time limit (60 s, under a 4 GB address-space limit) with
# status 0 or a refusal that says what was wrong (status 1, 2 or 64 and a message), never
# a signal or a runtime trap; the server must answer after every case it is sent.
#
#   scripts/hostile-pass.sh        builds what is missing (release), prints a line per
#                                  group and every failing case; status 1 if any failed
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bin=$PWD/.build/release/textrender
server=$PWD/Service/.build/release/textrender-server
[ -x "$bin" ] || swift build -c release --product textrender >&2
[ -x "$server" ] || (cd Service && swift build -c release --product textrender-server) >&2
work=$(mktemp -d)
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

declare -A total failed
order=()
failures=()

# check GROUP NAME STATUS STDERR [WHY]: records a case's outcome (WHY: it failed, and why).
check() {
    local group=$1 name=$2 status=$3 err=$4 forced=${5:-}
    [[ -v "total[$group]" ]] || { order+=("$group"); total[$group]=0; failed[$group]=0; }
    total[$group]=$((total[$group] + 1))
    local why=$forced
    if [ -n "$why" ]; then :
    elif ((status == 124 || status == 137)); then why="timed out"
    elif ((status > 128)); then why="signal $((status - 128))"
    elif grep -qE "Fatal error|Backtracing|Swift runtime failure|Program crashed" <<<"$err"; then why="runtime trap"
    elif ((status != 0)) && ! grep -qE "^(Error: |textrender: )." <<<"$err"; then why="status $status without a message"
    fi
    if [ -n "$why" ]; then
        failed[$group]=$((failed[$group] + 1))
        failures+=("$group / $name: $why: $(head -c 300 <<<"$err" | tr '\n' ' ')")
    fi
}

# cli GROUP NAME ARGS...: runs textrender with ARGS (stdin from $stdin, default empty).
stdin=/dev/null
cli() {
    local group=$1 name=$2; shift 2
    local status
    status=$( (ulimit -v 4000000; timeout -k 5 60 "$bin" "$@" < "$stdin" > "$work/out" 2> "$work/err"); echo "$?")
    check "$group" "$name" "$status" "$(head -c 2000 "$work/err")"
}

text() { printf '%s' "$1" > "$work/text.txt"; }
py() { python3 -c "$1"; }

# ---------------------------------------------------------------- numbers (render)
for value in 1e300 -1e300 1e39 8e18 -8e18 5e-324 -0 0 1e6 1000001 nan inf -inf 1.7976931348623157e308; do
    for align in left center right justify; do
        cli numbers "--width $value --align $align" render "Hello مرحبا 世界 👋" --width "$value" --align "$align" --output "$work/o.png"
    done
    for option in --inset --font-size --letter-spacing --line-spacing --line-height --line-height-multiple --scale; do
        cli numbers "$option $value" render "Hello مرحبا 世界 👋 wrap me" "$option=$value" --output "$work/o.png"
    done
    cli numbers "--hit $value,$value" render "Hello" --hit="$value,$value" --json
done
for value in -1 0 9223372036854775807 -9223372036854775808 99999999999999999999 1000001; do
    cli numbers "--max-lines $value" render "a b c" --max-lines="$value" --json
    cli numbers "--max-pixels $value" render "a b c" --max-pixels="$value" --output "$work/o.png"
    cli numbers "measure --max-lines $value" measure examples/feed.jsonl --max-lines="$value"
done
for widths in 1e300 "375,1e300" "$(py 'print(",".join(["375"]*65))')" "0,375" "-375" nan; do
    cli numbers "measure --width $widths" measure examples/feed.jsonl --width "$widths"
    cli numbers "feed --width $widths" feed examples/feed.jsonl --width "$widths" --out "$work/feed"
done

# ---------------------------------------------------------------- hostile texts
make_text() {  # NAME PYTHON-EXPRESSION (lone surrogates are written as WTF-8: invalid UTF-8)
    py "import sys; sys.stdout.buffer.write(($2).encode('utf-8', 'surrogatepass'))" > "$work/$1.txt"
}
make_text newlines '"\n" * 1_000_000'
make_text nobreak '"x" * 1_000_000'
make_text marks '"e" + "\u0301" * 200_000'
make_text zwj '"\u200d".join(["👩"] * 50_000)'
make_text bidi '("\u202e\u2067" * 5000 + "abc" + "\u2069" * 5000) * 5'
make_text controls '"".join(chr(c) for c in range(0, 32)) * 10_000'
make_text flags '"🇯🇵🇺🇸" * 50_000'
make_text mixed '("Hello مرحبا 世界 שלום ไทย 한국어 👍🏽 " * 20_000)'
make_text tabs '"\t" * 100_000 + "x"'
make_text separators '"\u2028\u2029\u0085\r" * 100_000'
make_text surrogates '"a\ud800b\udfffc"'
make_text private '"".join(chr(c) for c in range(0xE000, 0xF8FF)) * 3'
make_text noncharacters '"\uffff\ufffe\U0010ffff" * 50_000'
make_text longword '"supercalifragilistic" * 50_000'
make_text spaces '" " * 1_000_000'
make_text fffc '"\ufffc" * 100_000'
head -c 1000000 /dev/urandom > "$work/random.txt"
printf 'a\0b\0c' > "$work/nul.txt"
printf '\xff\xfe\xc0\x80\xed\xa0\x80 broken utf-8' > "$work/badutf8.txt"
for name in newlines nobreak marks zwj bidi controls flags mixed tabs separators surrogates private noncharacters longword spaces fffc random nul badutf8; do
    cli texts "$name --json" render --file "$work/$name.txt" --width 300 --json
    cli texts "$name png, 3 lines" render --file "$work/$name.txt" --width 300 --max-lines 3 --truncation middle --output "$work/o.png"
    cli texts "$name, letter-spaced, justified" render --file "$work/$name.txt" --width 200 --letter-spacing -10000 --align justify --max-lines 20 --output "$work/o.png"
done
stdin="$work/mixed.txt" cli texts "stdin" render --json
stdin=/dev/null

# ---------------------------------------------------------------- files
mkfifo "$work/fifo"
ln -s "$work/loop" "$work/loop"
printf 'not a font' > "$work/bad.ttf"
head -c 100000 fonts/DejaVuSans.ttf > "$work/truncated.ttf"
: > "$work/empty.ttf"
head -c 200000 /dev/urandom > "$work/random.ttf"
for font in /dev/zero /dev/null "$work/fifo" "$work" "$work/loop" "$work/bad.ttf" "$work/truncated.ttf" "$work/empty.ttf" \
            "$work/random.ttf" /nonexistent.ttf "fonts/DejaVuSans.ttf#7" "fonts/DejaVuSans.ttf#-1" /proc/self/mem; do
    cli files "--font $font" render "Hello" --font "$font" --output "$work/o.png"
done
for family in "No Such Family" "DejaVu Sans:NoSuchStyle" ":" "DejaVu Sans:" "$(py 'print("x" * 100000)')"; do
    cli files "--font-family ${family:0:40}" render "Hello" --font-family "$family" --output "$work/o.png"
done
for table in /dev/zero "$work/fifo" "$work" "$work/loop" "$work/bad.ttf" /nonexistent.json; do
    cli files "--emoticons $table" render "[微笑]" --emoticons "$table" --output "$work/o.png"
done
for input in "$work" "$work/loop" /nonexistent.txt "$work/random.txt"; do
    cli files "--file $input" render --file "$input" --output "$work/o.png"
    cli files "measure $input" measure "$input"
done
# A feed that never ends (`measure /dev/zero`: no line break, ever) is read until stopped,
# in flat memory: stopped after 5 s, it must have stayed under 200 MB.
/usr/bin/time -f '%M' -o "$work/peak" timeout 5 "$bin" measure /dev/zero > /dev/null 2>&1
peak=$(tail -1 "$work/peak" | tr -dc 0-9)
if ((peak < 200000)); then check files "measure /dev/zero for 5 s" 0 ""; else check files "measure /dev/zero for 5 s" 1 "" "peak $peak KB"; fi
# A pipe is a text's or a feed's usual source (`--file <(cmd)`): read as its writer writes.
(sleep 1; echo "from a pipe") > "$work/fifo" &
cli files "--file FIFO with a writer" render --file "$work/fifo" --output "$work/o.png"
(sleep 1; cat examples/feed.jsonl) > "$work/fifo" &
cli files "measure FIFO with a writer" measure "$work/fifo"
# PNGs: a huge IHDR, a chunk whose length passes the file's end, a text chunk that claims 2 GB.
python3 - "$work" <<'PY'
import struct, zlib, sys
def chunk(kind, data, length=None):
    return struct.pack(">I", len(data) if length is None else length) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
sig = b"\x89PNG\r\n\x1a\n"
ihdr = lambda w, h: chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
work = sys.argv[1]
open(work + "/huge.png", "wb").write(sig + ihdr(100000, 100000) + chunk(b"IDAT", zlib.compress(b"\0" * 10)) + chunk(b"IEND", b""))
open(work + "/longchunk.png", "wb").write(sig + ihdr(1, 1) + chunk(b"zTXt", b"k\0\0" + zlib.compress(b"x"), length=0x7FFFFFF0) + chunk(b"IEND", b""))
open(work + "/bomb.png", "wb").write(sig + ihdr(1, 1) + chunk(b"iCCP", b"p\0\0" + zlib.compress(b"\0" * 50_000_000)) + chunk(b"IDAT", zlib.compress(b"\0\0\0\0\0")) + chunk(b"IEND", b""))
PY
for png in huge longchunk bomb; do
    printf '{"emoticons": [{"code": "[x]", "image": "%s"}]}' "$work/$png.png" > "$work/$png.json"
    cli files "emoticon image $png.png" render "[x]" --emoticons "$work/$png.json" --output "$work/o.png"
done
py 'import json; print(json.dumps({"emoticons": [{"code": "[%d]" % i, "image": "'"$PWD"'/examples/emoticons/cool.png"} for i in range(100000)]}))' > "$work/many.json" 2>/dev/null
cli files "100,000 emoticon codes" render "[1] [2]" --emoticons "$work/many.json" --output "$work/o.png"

# ---------------------------------------------------------------- feeds
{
    echo '{"id":1,"text":"ok"}'
    echo 'not json'
    echo '{"id":2}'
    echo '{"id":{"a":1},"text":"x"}'
    py 'print("[" * 100000 + "]" * 100000)'
    py 'import json; print(json.dumps({"id": 3, "text": "@a " * 20000 + "#t# " * 5000 + "https://x.io/ " * 8000}))'
    py 'import json; print(json.dumps({"id": 4, "text": "[微笑]" * 20000}))'
    py 'import json; print(json.dumps({"id": 5, "text": "x", "images": 10**12}))'
    py 'import json; print(json.dumps({"id": 6, "text": "x", "images": -1}))'
    py 'import json; print(json.dumps({"id": 7, "text": "x", "lang": "x" * 10000}))'
    py 'import json; print(json.dumps({"id": 8, "text": "x", "quote": "\n" * 100000}))'
    printf '\xef\xbb\xbf{"id":9,"text":"bom"}\r\n'
    echo '{"id":1e400,"text":"x"}'
    echo '{"id":"'"$(py 'print("i" * 100000)')"'","text":"long id"}'
    echo ''
    echo '{"id":10,"text":"last"}'
} > "$work/bad.jsonl"
for layout in cell text; do
    cli feeds "measure bad.jsonl --layout $layout" measure "$work/bad.jsonl" --layout "$layout"
    cli feeds "measure bad.jsonl --layout $layout, 4 widths, 2 jobs" measure "$work/bad.jsonl" --layout "$layout" --width 320,375,414,768 --jobs 2
done
cli feeds "feed bad.jsonl" feed "$work/bad.jsonl" --out "$work/feedout"
cli feeds "feed bad.jsonl png" feed "$work/bad.jsonl" --format png --out "$work/feedout2"
head -c 20000000 /dev/zero | tr '\0' 'x' > "$work/oneline.jsonl"
cli feeds "a 20 MB line" measure "$work/oneline.jsonl"
cli feeds "random bytes" measure "$work/random.txt"

# ---------------------------------------------------------------- outputs
cli outputs "to /dev/full" render "x" --output /dev/full
cli outputs "to a directory" render "x" --output "$work"
cli outputs "to a missing folder" render "x" --output "$work/none/o.png"
cli outputs "to a FIFO with no reader" render "x" --output "$work/fifo"
cli outputs "feed --out a file" feed examples/feed.jsonl --out "$work/bad.ttf"
cli outputs "feed --out /dev/null" feed examples/feed.jsonl --out /dev/null
err=$(timeout 30 "$bin" measure examples/feed.jsonl 2>&1 > /dev/full); check outputs "measure stdout /dev/full" $? "$err"

# ---------------------------------------------------------------- the service
"$server" --port 0 --jobs 2 --request-timeout 20 --body-timeout 3 > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
for _ in $(seq 100); do grep -q listening "$work/server.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$work/server.out")
alive() { curl -s -m 5 "http://127.0.0.1:$port/health" | grep -q '"ok"'; }
# http NAME CURL-ARGS...: one request; any HTTP status is an answer; the server must live.
http() {
    local name=$1; shift
    local code
    code=$(timeout 60 curl -s -m 50 -o "$work/http.out" -w '%{http_code}' "$@" 2>&1)
    local status=$?
    if alive; then check service "$name" 0 ""; else check service "$name" 1 "" "server gone after: $code"; fi
    [ "$status" -ne 124 ] || check service "$name (client)" 1 "" "hung"
}
url=http://127.0.0.1:$port
for field in width fontSize lineSpacing letterSpacing lineHeight lineHeightMultiple inset scale maxPixels maxLines; do
    for value in 1e300 -1e300 1e39 8e18 5e-324 -0.0 '"inf"' '"nan"' null '[]' '{}' '"x"'; do
        http "/render $field=$value" -X POST "$url/render" -d "{\"text\":\"Hi مرحبا 世界\",\"$field\":$value,\"align\":\"center\"}"
    done
done
for body in '' '{' '[]' 'null' '"x"' '{"text":1}' '{"text":"x","unknown":1}' "$(py 'print("[" * 100000)')" \
            "{\"text\":\"$(py 'print("\\n" * 120000)')\",\"fontSize\":0.01}" "{\"text\":\"x\",\"emoticons\":true,\"maxPixels\":1}"; do
    http "/render body ${body:0:30}" -X POST "$url/render" -d "$body"
done
http "/render 16 MB body" -X POST "$url/render" --data-binary @"$work/nobreak.txt"
http "/render chunked 1 MB" -X POST "$url/render" -H "Transfer-Encoding: chunked" --data-binary @"$work/nobreak.txt"
http "/render lying Content-Length" -X POST "$url/render" -H "Content-Length: 999999999" -d '{"text":"x"}'
http "/measure bad feed" -X POST "$url/measure" --data-binary @"$work/bad.jsonl"
http "/measure 20 MB line" -X POST "$url/measure" --data-binary @"$work/oneline.jsonl"
http "/measure random bytes" -X POST "$url/measure" --data-binary @"$work/random.txt"
for query in 'width=1e300' 'width=375,1e300' 'width=-1' 'max-lines=99999999999999999999' 'font-size=nan' 'layout=x' \
             'width=375&width=320' 'emoticons=maybe' 'letter-spacing=1e9&layout=text' 'features=%00' 'lang=%FF' "x=$(py 'print("y" * 100000)')"; do
    http "/measure ?$query" -X POST "$url/measure?$query" --data-binary @examples/feed.jsonl
done
http "huge header" -H "X-Big: $(py 'print("a" * 200000)')" "$url/health"
http "many headers" $(for i in $(seq 300); do printf -- '-H X-%d:%d ' "$i" "$i"; done) "$url/health"
http "GET /render" "$url/render"
http "DELETE /measure" -X DELETE "$url/measure"
http "path traversal" "$url/../../etc/passwd"
http "HTTP/1.0" --http1.0 -X POST "$url/render" -d '{"text":"x"}'
# Clients that send a whole body (under and over the 16 MB limit) before reading a byte of
# the answer: each must read a whole answer (or a status and its error line), never a reset.
for posts in 40000 400000; do
    result=$(timeout 120 python3 - "$port" "$posts" 2>&1 <<'PY'
import socket, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
body = "\n".join('{"id":%d,"text":"sent whole before reading, #%d"}' % (i, i) for i in range(count)).encode()
s = socket.create_connection(("127.0.0.1", port))
try:
    s.sendall(b"POST /measure?width=320,375 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
except OSError as error:
    print("the body was cut off: %s" % error)
    sys.exit(0)
data = b""
while True:
    chunk = s.recv(1 << 16)
    if not chunk:
        break
    data += chunk
last = data.rstrip().split(b"\n")[-3:]
print("ok" if data.startswith(b"HTTP/1.1 ") and data.endswith(b"0\r\n\r\n") or b"Content-Length" in data[:400] else "cut short: %r" % last)
PY
)
    if [ "$result" = ok ]; then check service "send $posts posts, then read" 0 ""; else check service "send $posts posts, then read" 1 "" "$result"; fi
done
# Slow and lying clients, several at once, then the server must still measure.
python3 - "$port" <<'PY' &
import socket, sys, time, threading
port = int(sys.argv[1])
def trickle(path):
    try:
        s = socket.create_connection(("127.0.0.1", port)); s.settimeout(30)
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n".encode())
        for b in b'{"id":1,"text":"slow"}\n' * 4:
            s.sendall(bytes([b])); time.sleep(0.2)
    except OSError:
        pass
def idle():
    try:
        s = socket.create_connection(("127.0.0.1", port)); time.sleep(8)
    except OSError:
        pass
threads = [threading.Thread(target=trickle, args=(p,)) for p in ["/render", "/measure"] * 4] + [threading.Thread(target=idle) for _ in range(200)]
for t in threads: t.start()
for t in threads: t.join()
PY
slow=$!
sleep 1
http "/measure while 8 trickle and 200 idle" -X POST "$url/measure" --data-binary @examples/feed.jsonl
wait "$slow"
http "after the slow clients" -X POST "$url/render" -d '{"text":"still here"}'
kill "$server_pid"; wait "$server_pid" 2>/dev/null; server_pid=
check service "server exit" 0 "$(grep -E 'Fatal|Backtrac' "$work/server.err")"

# ---------------------------------------------------------------- report
all=0; bad=0
for group in "${order[@]}"; do
    printf '%-10s %4d cases, %d failed\n' "$group" "${total[$group]}" "${failed[$group]}"
    all=$((all + total[$group])); bad=$((bad + failed[$group]))
done
printf '%-10s %4d cases, %d failed\n' all "$all" "$bad"
for line in "${failures[@]}"; do echo "FAIL $line"; done
((bad == 0))
