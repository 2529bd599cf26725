#!/usr/bin/env bash
# Creates .venv with the Python packages the tests use beside the standard library (pyarrow as an
# independent Parquet reader, websockets as OpenEnv's client uses it, openpyxl as an independent workbook
# reader; nbclient, nbformat, ipykernel and matplotlib to execute notebooks/walkthrough.ipynb headless).
# Offline: pip resolves them from
# the machine's local indexes. Tests find the interpreter as $RELEASEOPS_PYTHON or .venv/bin/python.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
index_args=()
for index in /opt/pypi/simple; do
  if [ -d "$index" ]; then index_args+=(--index-url "file://$index"); fi
done
.venv/bin/pip install --quiet --disable-pip-version-check "${index_args[@]}" websockets pyarrow jinja2 tokenizers datasets pandas openpyxl
# The notebook's executor and plots; --no-compile: only what the kernel imports gets byte-compiled, on use.
.venv/bin/pip install --quiet --disable-pip-version-check --no-compile "${index_args[@]}" nbclient nbformat ipykernel matplotlib
.venv/bin/python -c "import websockets, pyarrow, jinja2, tokenizers, datasets, openpyxl, nbclient, ipykernel, matplotlib; print('python test deps:', 'websockets', websockets.__version__, 'pyarrow', pyarrow.__version__, 'jinja2', jinja2.__version__, 'tokenizers', tokenizers.__version__, 'datasets', datasets.__version__, 'openpyxl', openpyxl.__version__, 'nbclient', nbclient.__version__, 'matplotlib', matplotlib.__version__)"
