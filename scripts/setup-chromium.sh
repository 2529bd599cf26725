#!/usr/bin/env bash
# Debian's headless Chromium for the dashboard's browser tests (test/web-*.test.ts, driven by playwright-core,
# which downloads nothing). Skipped when /usr/bin/chromium (or $RELEASEOPS_CHROMIUM) already exists.
set -euo pipefail
if [ -x "${RELEASEOPS_CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "chromium: $("${RELEASEOPS_CHROMIUM:-/usr/bin/chromium}" --version 2>/dev/null || echo present)"
  exit 0
fi
command -v apt-get >/dev/null || { echo "setup-chromium: no apt-get; install Chromium and set RELEASEOPS_CHROMIUM" >&2; exit 1; }
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
