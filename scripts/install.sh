#!/usr/bin/env bash
# Installs textrender and the files it ships with: PREFIX/bin/textrender and
# PREFIX/share/textkitlite/{fonts,examples/emoticons}, where the binary looks for them
# (beside its own folder), so the installed binary works without the source tree.
# With --server, also PREFIX/bin/textrender-server (the HTTP service, Service/), which finds
# the same shipped files.
# Usage: scripts/install.sh [--server] [PREFIX]   (default /usr/local)
set -euo pipefail
cd "$(dirname "$0")/.."
server=0
if [ "${1:-}" = "--server" ]; then server=1; shift; fi
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
if [ "$server" = 1 ]; then
    (cd Service && swift build -c release --product textrender-server)
    install -m 755 Service/.build/release/textrender-server "$prefix/bin/textrender-server"
    echo "installed $prefix/bin/textrender-server" >&2
fi
