#!/usr/bin/env bash
# Installs textrender and the files it ships with: PREFIX/bin/textrender and
# PREFIX/share/textkitlite/{fonts,examples/emoticons}, where the binary looks for them
# (beside its own folder), so the installed binary works without the source tree.
# Usage: scripts/install.sh [PREFIX]   (default /usr/local)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh
swift build -c release --product textrender
share="$prefix/share/textkitlite"
install -d "$prefix/bin" "$share/fonts" "$share/examples/emoticons"
install -m 755 .build/release/textrender "$prefix/bin/textrender"
cp fonts/* "$share/fonts/"
cp -R examples/emoticons/. "$share/examples/emoticons/"
echo "installed $prefix/bin/textrender (shipped files in $share)" >&2
