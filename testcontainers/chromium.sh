#!/usr/bin/env bash
# Provides the headless Chromium the console's browser tests drive (console/browser_test.go):
# prints the path of a chromium binary, installing Debian's `chromium` package first when none
# is on PATH (as root, or through sudo). `make test` runs it before the suite, and the test runs
# it itself when it finds no browser, so a fresh CI machine gets one instead of skipping.
# ZAXY_CHROMIUM, when set, names the binary to use and nothing is installed.
set -euo pipefail

if [[ -n "${ZAXY_CHROMIUM:-}" ]]; then
  command -v "$ZAXY_CHROMIUM"
  exit 0
fi
for name in chromium chromium-browser; do
  if path=$(command -v "$name" 2>/dev/null); then
    echo "$path"
    exit 0
  fi
done

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "chromium.sh: chromium is missing and installing it needs root or sudo" >&2; exit 1; }
  sudo="sudo -n"
fi
echo "chromium.sh: installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq chromium >&2
command -v chromium
