#!/usr/bin/env bash
# The ten-minute check for one GPU: does GRPO move a small real model's reward on the env?
#
#   bash scripts/gpu-pilot.sh Qwen/Qwen3-0.6B          # a Hub id or a local model folder
#   STEPS=30 bash scripts/gpu-pilot.sh /models/qwen3-1.7b
#
# Stages (each timed): the env server on loopback → the measured completion budget (`train budget`,
# refuses a MAX_COMPLETION_LENGTH that would cut episodes) → pre-eval: ROWS eval_seen rows × SAMPLES
# samples at SEED, each episode played up to MAX_TURNS calls and scored by the env → GRPO for STEPS steps
# (train_grpo.py, vLLM colocate) → post-eval of the same rows, samples and seed → the paired verdict:
# PASS only when the 95% interval of the reward gain is above 0, not all from one tool and not from calling
# less, else INCONCLUSIVE. Exit 0 with either verdict; non-zero when a stage fails.
#
# Settings (environment): ENV_ID (releaseops-v3), ROWS (32), SAMPLES (4), SEED (1234), STEPS (20),
# MAX_TURNS (4), MAX_NEW_TOKENS (256), BATCH_SIZE (64 episodes generated together), LEARNING_RATE (1e-5), NUM_GENERATIONS (8), MAX_TOOL_ROUNDS (4),
# MAX_COMPLETION_LENGTH (the measured recommendation), USE_VLLM (colocate; none on a CPU),
# VLLM_GPU_MEMORY_UTILIZATION (0.3), EXTRA_TRAIN_FLAGS (more train_grpo.py flags, e.g. "--lora-r 16"),
# OUT (outputs/gpu-pilot), PYTHON (RELEASEOPS_TRAIN_PYTHON or .venv-rl/bin/python), RELEASEOPS (the CLI).
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 1 ] || { echo "usage: $0 MODEL (Hub id or model folder)" >&2; exit 2; }
model=$1
env_id=${ENV_ID:-releaseops-v3}
rows=${ROWS:-32}
samples=${SAMPLES:-4}
seed=${SEED:-1234}
steps=${STEPS:-20}
max_turns=${MAX_TURNS:-4}
max_new_tokens=${MAX_NEW_TOKENS:-256}
batch_size=${BATCH_SIZE:-64}
learning_rate=${LEARNING_RATE:-1e-5}
generations=${NUM_GENERATIONS:-8}
tool_rounds=${MAX_TOOL_ROUNDS:-4}
use_vllm=${USE_VLLM:-colocate}
out=${OUT:-outputs/gpu-pilot}
python=${PYTHON:-${RELEASEOPS_TRAIN_PYTHON:-.venv-rl/bin/python}}
if [ -z "${RELEASEOPS:-}" ]; then
  if [ -f dist/cli/run.js ]; then RELEASEOPS="node bin/releaseops.js"; else RELEASEOPS="node --import tsx src/cli/run.ts"; fi
fi
case $model in /*) ;; *) [ -d "$model" ] && model=$PWD/$model ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
timings=()
stage_started=0
begin() { stage_started=$(date +%s.%N); echo "gpu-pilot: == $1"; }
finish() { timings+=("$1 $(awk -v a="$stage_started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"); }

server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap stop_server EXIT

begin "env server"
$RELEASEOPS serve --env "$env_id" --port 0 >"$out/server.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 120); do
  url=$(sed -n 's/^releaseops serve: listening on \(http[^ ]*\).*/\1/p' "$out/server.log" | head -n 1)
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { echo "gpu-pilot: the server exited; see $out/server.log" >&2; exit 3; }
  sleep 0.5
done
[ -n "$url" ] || { echo "gpu-pilot: the server did not start in 60 s; see $out/server.log" >&2; exit 3; }
$RELEASEOPS dataset --env "$env_id" --out-dir "$out/data" --splits train,eval_seen >/dev/null
head -n "$rows" "$out/data/eval_seen.jsonl" >"$out/eval-rows.jsonl"
echo "gpu-pilot: $env_id at $url; $(wc -l <"$out/eval-rows.jsonl") eval_seen rows"
finish "env server"

begin "budget"
case $model in *[Qq]wen3.5* | *[Qq]wen3_5* | *[Qq]wen3-5*) family=qwen3.5 ;; *) family=qwen3 ;; esac
check=()
[ -n "${MAX_COMPLETION_LENGTH:-}" ] && check=(--max-completion-length "$MAX_COMPLETION_LENGTH")
$RELEASEOPS train budget --env "$env_id" --format "$family" --tool-rounds "$tool_rounds" "${check[@]}" | tee "$out/budget.txt"
max_completion_length=${MAX_COMPLETION_LENGTH:-$(sed -n 's/.*presets use \([0-9]*\)$/\1/p' "$out/budget.txt")}
[ -n "$max_completion_length" ] || { echo "gpu-pilot: no budget measured; see $out/budget.txt" >&2; exit 3; }
finish "budget"

case $python in /*) ;; *) python=$PWD/$python ;; esac
probe() { # LABEL MODEL OUT: one model's episodes on the eval rows, scored by the env
  (cd python && "$python" -m releaseops_train.probe --rows "$out/eval-rows.jsonl" --env-url "$url" --env-id "$env_id" \
    --count "$rows" --samples-per-row "$samples" --seed "$seed" --max-turns "$max_turns" --max-new-tokens "$max_new_tokens" \
    --batch-size "$batch_size" --temperature 1.0 --model "$1=$2" --out "$3")
}

begin "pre-eval"
probe before "$model" "$out/pre-eval.json"
finish "pre-eval"

begin "GRPO"
vllm_flags=()
if [ "$use_vllm" != "none" ]; then
  vllm_flags=(--use-vllm "$use_vllm" --vllm-gpu-memory-utilization "${VLLM_GPU_MEMORY_UTILIZATION:-0.3}")
fi
# shellcheck disable=SC2086 # EXTRA_TRAIN_FLAGS is a list of flags
"$python" -u python/train_grpo.py --dataset "$out/data/train.jsonl" --env-url "$url" --env-id "$env_id" \
  --model-name "$model" --output-dir "$out/run" --max-steps "$steps" --learning-rate "$learning_rate" \
  --num-generations "$generations" --per-device-train-batch-size "$generations" --gradient-accumulation-steps 1 \
  --max-completion-length "$max_completion_length" --max-tool-calling-iterations "$tool_rounds" --logging-steps 1 \
  --save-steps 100000 --seed "$seed" "${vllm_flags[@]}" ${EXTRA_TRAIN_FLAGS:-} 2>&1 | tee "$out/train.log" ||
  { echo "gpu-pilot: GRPO failed; see $out/train.log" >&2; exit 4; }
finish "GRPO"

begin "post-eval"
probe after "$out/run/final" "$out/post-eval.json"
finish "post-eval"

begin "verdict"
$RELEASEOPS train verdict --before "$out/pre-eval.json" --after "$out/post-eval.json" --metric reward | tee "$out/verdict.txt"
finish "verdict"
echo "gpu-pilot: stage times: $(IFS=,; echo "${timings[*]}" | sed 's/,/; /g')" | tee -a "$out/verdict.txt"
