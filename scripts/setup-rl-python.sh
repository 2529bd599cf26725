#!/usr/bin/env bash
# Creates .venv-rl, the Python that runs python/train_grpo.py (TRL GRPO with environment_factory, CPU torch),
# fully offline from the machine's local package indexes. Idempotent and cached: a second run with the
# pinned versions already installed takes about a second.
#
# The indexes come from `pip config list` (global.index-url / extra-index-url / find-links). They are passed
# to pip explicitly as --index-url/--extra-index-url, because pip otherwise queries the unreachable public
# index first and retries it for minutes. The CPU torch wheel is installed by path so the resolver can never
# pick a multi-GB CUDA build. When the indexes or the wheel are missing this stops with a clear message:
# the CI training smoke never silently skips.
#
# On a GPU host (normal internet access, CUDA):  bash scripts/setup-rl-python.sh --gpu
# makes .venv-rl with the host's CUDA torch (TORCH_INDEX_URL, default cu128) and python/requirements-train.txt.
# `--gpu --vllm` adds python/requirements-vllm.txt (train_grpo.py --use-vllm); `--print` (last) only prints
# the commands it would run.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-rl

if [ "${1-}" = "--gpu" ]; then
  torch_index=${TORCH_INDEX_URL:-https://download.pytorch.org/whl/cu128}
  requirements="-r python/requirements-train.txt"
  case " $* " in *" --vllm "*) requirements="$requirements -r python/requirements-vllm.txt" ;; esac
  commands=(
    "python3 -m venv $venv"
    "$venv/bin/pip install --upgrade pip"
    "$venv/bin/pip install torch --index-url $torch_index"
    "$venv/bin/pip install $requirements"
    "$venv/bin/python -c 'import torch, trl; print(\"trl\", trl.__version__, \"torch\", torch.__version__, \"cuda\", torch.cuda.is_available())'"
  )
  for command in "${commands[@]}"; do
    echo "setup-rl-python --gpu: $command"
    case " $* " in *" --print "*) ;; *) eval "$command" ;; esac
  done
  echo "setup-rl-python --gpu: the server runs python/train_grpo.py with $venv/bin/python (override: RELEASEOPS_TRAIN_PYTHON)."
  exit 0
fi
trl_version=1.13.0
torch_version=2.13.0

fail() {
  echo "setup-rl-python: $*" >&2
  exit 1
}

installed() {
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$trl_version" "$torch_version" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
ok = version("trl") == sys.argv[1] and version("torch").startswith(sys.argv[2] + "+cpu")
for name in ("transformers", "datasets", "accelerate", "peft"):
    version(name)
sys.exit(0 if ok else 1)
PY
}

if installed; then
  "$venv/bin/python" -c "import trl, transformers, torch; print('rl python (cached):', 'trl', trl.__version__, 'transformers', transformers.__version__, 'torch', torch.__version__)"
  exit 0
fi

command -v python3 >/dev/null || fail "python3 is not installed."
config=$(python3 -m pip config list 2>/dev/null || true)
setting() { # the value of a pip setting from any scope, quotes removed
  printf '%s\n' "$config" | sed -n "s/^[^.]*\.$1='\(.*\)'$/\1/p" | head -n 1
}
indexes=()
for url in $(setting index-url) $(setting extra-index-url); do
  path=${url#file://}
  if [ "$path" != "$url" ] && [ ! -d "$path" ]; then continue; fi # a configured local index that is gone
  case " ${indexes[*]-} " in *" $url "*) ;; *) indexes+=("$url") ;; esac
done
if [ "${#indexes[@]}" -eq 0 ]; then
  fail "no package index configured (pip config list shows no index-url/extra-index-url). This offline CPU setup needs the local indexes that hold trl $trl_version, transformers, datasets and accelerate (CI cannot run the training smoke without them). On a GPU host with internet access run \`bash scripts/setup-rl-python.sh --gpu\` instead (CUDA torch + python/requirements-train.txt); any other Python with them works through RELEASEOPS_TRAIN_PYTHON=/path/to/python."
fi
find_links=$(setting find-links)
wheel=""
for folder in $find_links; do
  for candidate in "$folder"/torch-"$torch_version"+cpu-*.whl; do
    if [ -f "$candidate" ]; then wheel=$candidate; fi
  done
done
[ -n "$wheel" ] || fail "no CPU torch $torch_version wheel in pip's find-links folders (${find_links:-none configured}); it is installed by path so pip cannot pick a CUDA build."

index_args=(--index-url "${indexes[0]}")
for url in "${indexes[@]:1}"; do index_args+=(--extra-index-url "$url"); done
echo "setup-rl-python: indexes ${indexes[*]}; torch wheel $wheel"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip_log=$(mktemp)
trap 'rm -f "$pip_log"' EXIT
# pip's output goes to a file (it warns once per package a local index lacks) and is shown on failure only.
if ! "$venv/bin/pip" install --disable-pip-version-check "${index_args[@]}" \
  "$wheel" "trl==$trl_version" "transformers>=5.2,<6" "datasets>=4.7" accelerate "peft>=0.15" >"$pip_log" 2>&1; then
  tail -n 40 "$pip_log" >&2
  fail "pip could not install the RL stack from ${indexes[*]} (is trl $trl_version in the local index?)."
fi
installed || fail "the RL stack installed, but trl $trl_version / torch $torch_version+cpu are not what $venv has."
"$venv/bin/python" -c "import trl, transformers, torch; print('rl python:', 'trl', trl.__version__, 'transformers', transformers.__version__, 'torch', torch.__version__)"
