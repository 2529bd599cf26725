#!/usr/bin/env bash
# One command: a zero-shot model and a fine-tuned checkpoint on the same eval rows, then `eval compare`'s
# paired table (the original's compare_qwen17_eval.sh).
#
#   bash scripts/compare-zero-shot-finetuned.sh Qwen/Qwen3-1.7B outputs/runs/<id>/best_by_reward [ROWS]
#
# Each model is served behind an OpenAI-compatible endpoint with vLLM (`vllm serve`, one after the other
# on the same GPU) unless ZERO_SHOT_URL / FINE_TUNED_URL name endpoints already serving them
# (e.g. http://127.0.0.1:8001/v1; the model arguments are then the names they serve). Rows: the first ROWS (default 50) of the env's eval split.
# vLLM comes from python/requirements-vllm.txt (`bash scripts/setup-rl-python.sh --gpu --vllm`).
# Settings: ENV_ID (releaseops-v3), OUT (outputs/compare), PORT (8011), CONCURRENCY (8), MAX_TOKENS (1024),
# RELEASEOPS (the CLI: `node bin/releaseops.js`, or `node --import tsx src/cli/run.ts` in a checkout).
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { echo "usage: $0 ZERO_SHOT_MODEL FINE_TUNED_MODEL [ROWS]" >&2; exit 2; }
zero_shot=$1
fine_tuned=$2
rows=${3:-50}
env_id=${ENV_ID:-releaseops-v3}
out=${OUT:-outputs/compare}
port=${PORT:-8011}
if [ -z "${RELEASEOPS:-}" ]; then
  if [ -f dist/cli/run.js ]; then RELEASEOPS="node bin/releaseops.js"; else RELEASEOPS="node --import tsx src/cli/run.ts"; fi
fi
mkdir -p "$out"
$RELEASEOPS dataset --env "$env_id" --out-dir "$out/data" --splits eval >/dev/null
head -n "$rows" "$out/data/eval.jsonl" >"$out/rows.jsonl"

server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap stop_server EXIT

# serve MODEL NAME: prints the endpoint URL (vLLM on $port), after /v1/models answers.
serve() {
  command -v vllm >/dev/null || {
    echo "compare: vllm is not installed; serve $1 yourself and set ZERO_SHOT_URL / FINE_TUNED_URL" >&2
    exit 3
  }
  vllm serve "$1" --served-model-name "$2" --port "$port" --enable-auto-tool-choice --tool-call-parser hermes \
    >"$out/vllm-$2.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
    if curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null; then echo "http://127.0.0.1:$port/v1"; return 0; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "compare: vllm exited; see $out/vllm-$2.log" >&2; exit 3; }
    sleep 1
  done
  echo "compare: vllm did not answer in 600 s; see $out/vllm-$2.log" >&2
  exit 3
}

# run NAME MODEL URL: one eval of the rows against the endpoint.
run() {
  local name=$1 model=$2 url=$3 served=$2
  if [ -z "$url" ]; then
    url=$(serve "$model" "$name")
    served=$name
  fi
  echo "compare: $name ($model) at $url"
  rm -f "$out/$name.episodes.jsonl"
  $RELEASEOPS eval --env "$env_id" --dataset "$out/rows.jsonl" --model "$served" --base-url "$url" \
    --concurrency "${CONCURRENCY:-8}" --max-tokens "${MAX_TOKENS:-1024}" --no-enable-thinking --no-ceiling \
    --out "$out/$name.summary.json" --episodes-out "$out/$name.episodes.jsonl"
  stop_server
}

run zero-shot "$zero_shot" "${ZERO_SHOT_URL:-}"
run fine-tuned "$fine_tuned" "${FINE_TUNED_URL:-}"
$RELEASEOPS eval compare "$out/zero-shot.episodes.jsonl" "$out/fine-tuned.episodes.jsonl" --out "$out/comparison.json"
