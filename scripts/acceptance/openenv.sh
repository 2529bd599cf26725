#!/usr/bin/env bash
# OpenEnv's own clients against our server. Usage: scripts/acceptance/openenv.sh OPENENV_CHECKOUT
# Installs the checkout (unmodified) into a venv of its own ($OPENENV_VENV, default
# /tmp/openenv-acceptance-venv) from the configured package indexes, starts `releaseops serve` on a free
# loopback port, runs GenericEnvClient (sync, async), MCPToolClient (/ws step mode and /mcp production
# mode, rejected calls included) and `openenv validate --url`, and prints one verdict line.
# Not installed: gradio (OpenEnv's optional web UI; no client path imports it).
# OPENENV_PIP_ARGS: extra pip arguments (e.g. --index-url file:///opt/pypi/simple on an offline machine).
set -uo pipefail
checkout=${1:?usage: scripts/acceptance/openenv.sh OPENENV_CHECKOUT}
checkout=$(cd "$checkout" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${OPENENV_VENV:-/tmp/openenv-acceptance-venv}
env_id=${OPENENV_ENV_ID:-releaseops-v3}
revision=$(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo unknown)
log=$(mktemp -d)/acceptance
verdict() { echo "openenv acceptance: $1 (OpenEnv $revision, env $env_id)${2:+: $2}"; }

if [ ! -x "$venv/bin/openenv" ]; then
  python3 -m venv "$venv" || { verdict FAIL "no venv"; exit 1; }
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q ${OPENENV_PIP_ARGS:-} wheel fastapi pydantic uvicorn requests typer rich pyyaml huggingface_hub openai \
    tomli tomli-w websockets fastmcp httpx >"$log.pip" 2>&1 &&
    "$venv/bin/pip" install -q ${OPENENV_PIP_ARGS:-} --no-deps --no-build-isolation -e "$checkout" >>"$log.pip" 2>&1 ||
    { tail -5 "$log.pip"; verdict FAIL "OpenEnv did not install"; exit 1; }
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$root" && exec node --import tsx src/cli/run.ts serve --port "$port" --env "$env_id") >"$log.server" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fsS "$base/health" >/dev/null 2>&1 && break; sleep 0.2; done

failures=()
"$venv/bin/python" "$root/scripts/acceptance/openenv_clients.py" "$base" | tee "$log.clients"
[ "${PIPESTATUS[0]}" = 0 ] || failures+=("clients")
"$venv/bin/openenv" validate --url "$base" >"$log.validate" 2>&1
validate_rc=$?
cat "$log.validate"
checks=$(python3 -c 'import json,sys
text=open(sys.argv[1]).read(); report=json.loads(text[text.index("{"):])
crit=report.get("criteria", [])
print("%d/%d" % (sum(1 for c in crit if c.get("passed")), len(crit)))' "$log.validate" 2>/dev/null || echo "?")
[ "$validate_rc" = 0 ] || failures+=("validate")

clients=$(grep -o 'clients: [0-9]*/[0-9]*' "$log.clients" || echo "clients: ?")
if [ ${#failures[@]} = 0 ]; then
  verdict PASS "$clients, openenv validate $checks"
else
  verdict FAIL "${failures[*]} ($clients, openenv validate $checks)"
  exit 1
fi
