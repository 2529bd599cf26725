#!/usr/bin/env bash
# The CLI and the env conformance suite under Node 24 (the current LTS), a quick job beside the main run on
# the host's Node: the npm package node@24 installs Node 24 into .tmp/node24 (kept when already there).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=.tmp/node24
node24="$prefix/node_modules/.bin/node"
if [ ! -x "$node24" ]; then
  npm install --no-audit --no-fund --no-save --prefix "$prefix" node@24 >/dev/null
fi
version=$("$node24" --version)
case "$version" in v24.*) ;; *) echo "node24-check: expected Node 24, got $version" >&2; exit 1 ;; esac
echo "node24-check: $version"
run() { "$node24" bin/releaseops.js "$@"; }
run --version >/dev/null
envs=$(run env list | grep -oE '^[a-z][a-z0-9-]*')
[ "$(echo "$envs" | wc -w)" -ge 4 ] || { echo "node24-check: env list shows too few envs: $envs" >&2; exit 1; }
for env in $envs; do
  run env check --env "$env" >/dev/null
  echo "node24-check: env check --env $env ok"
done
run eval --env releaseops-v3 --policy rule,evidence-heuristic --no-ceiling --workers 2 --out "$prefix/eval-summary.json" >/dev/null 2>"$prefix/eval.log" \
  || { cat "$prefix/eval.log" >&2; exit 1; }
echo "node24-check: eval ok"
# The server answers /health under Node 24.
log=$(mktemp)
"$node24" bin/releaseops.js serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q 'listening on' "$log" && break; sleep 0.1; done
url=$(grep -o 'listening on http://[^ ]*' "$log" | head -1 | cut -d' ' -f3)
[ -n "$url" ] || { echo "node24-check: the server did not start" >&2; cat "$log" >&2; exit 1; }
"$node24" -e "fetch('$url/health').then((r) => r.json()).then((b) => process.exit(b.status === 'healthy' ? 0 : 1), () => process.exit(1))"
echo "node24-check: serve $url/health ok"
