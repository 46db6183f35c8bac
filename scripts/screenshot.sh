#!/usr/bin/env bash
# scripts/screenshot.sh — quickstart's HTML report, rendered by headless Chromium.
#
#   scripts/screenshot.sh [BUILD_DIR] [OUT_PNG]     defaults: build-screenshot, docs/quickstart.png
#
# Builds the examples (meson) when BUILD_DIR has none, runs
# `quickstart --quick --samples=101 --out=quickstart.html`, renders the page at 1000 px wide
# and checks the PNG is not blank (scripts/png_stats.py).  Needs `chromium`
# (Debian: apt-get install chromium).  Exit 77 when Chromium is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bdir=${1:-build-screenshot}
png=${2:-docs/quickstart.png}
height=${SCREENSHOT_HEIGHT:-1500}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z $browser ]]; then
  echo "screenshot: no chromium on PATH (Debian: apt-get install chromium)" >&2
  exit 77
fi
if [[ ! -x $bdir/examples/quickstart ]]; then
  [[ -d $bdir ]] || meson setup "$bdir" >/dev/null
  meson compile -C "$bdir" quickstart >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bdir/examples/quickstart" --quick --samples=101 --out="$work/quickstart.html" > "$work/console.txt"
mkdir -p "$(dirname "$png")"
# no network, no profile of the user's, no GPU: the page is one file
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --screenshot="$png" --window-size="1000,$height" \
  "file://$work/quickstart.html" 2> "$work/chromium.log" || { cat "$work/chromium.log" >&2; exit 1; }
python3 scripts/png_stats.py "$png"
echo "screenshot: $png"
