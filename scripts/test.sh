#!/usr/bin/env bash
# Installs what is missing and runs the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh
swift build --build-tests
swift test --skip-build
