#!/usr/bin/env bash
# Installs what TextKitLite needs on Debian 12 when it is missing: HarfBuzz, FreeType, libpng,
# libjpeg (libjpeg62-turbo-dev, for TextKitLiteMedia only) and ICU development files,
# libhyphen (hyphenation; no pkg-config file) with its US English patterns, pkg-config, the Unicode conformance files (unicode-data), GNU time (peak memory of the bounded-memory check), python3-jsonschema (the output schema check) and
# fontconfig's development files.
# `--test` adds the tests' system fonts (with Inter's variable font), python3-fonttools (scripts/make-colr-font.py rebuilds
# the tests' COLR font with it) and python3-pil (scripts/make-media-fixtures.py rebuilds the
# picture fixtures with it); `--bench` adds Pango and cairo's development files, for
# the Pango + cairo peer of the benchmarks (Benchmarks/pango.sh); `--viewer` adds SDL2's development
# files and Xvfb, for the feed viewer (Viewer/) and its headless tests; none is a library dependency.
# Safe to run again: it installs nothing when everything is present.
set -euo pipefail

packages=(pkg-config libharfbuzz-dev libfreetype-dev libpng-dev libjpeg62-turbo-dev libfontconfig-dev libicu-dev libhyphen-dev hyphen-en-us unicode-data time python3-jsonschema)
# The tests' system fonts (fontconfig lookups, system fallback, CJK faces by language), and the
# font tools of their fixture scripts.
for flag in "$@"; do
    case "$flag" in
        --test) packages+=(fonts-noto-cjk fonts-thai-tlwg fonts-inter-variable python3-fonttools python3-pil) ;;
        --bench) packages+=(libpango1.0-dev libcairo2-dev) ;;
        --viewer) packages+=(libsdl2-dev xvfb xauth) ;;
        *) echo "setup: unknown option $flag (use --test, --bench, --viewer)" >&2; exit 64 ;;
    esac
done
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "setup: add /opt/swift/usr/bin to PATH" >&2
    else
        echo "setup: Swift 6 is required (swift not found on PATH)" >&2
    fi
    exit 1
fi
