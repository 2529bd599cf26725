"""Executes a notebook headless (nbclient, a python3 kernel) and writes the executed copy.

Usage: python execute-notebook.py NOTEBOOK OUTPUT [TIMEOUT_SECONDS]. A cell that raises stops the run
with its error (exit 1); the executed notebook is written either way, outputs included.
"""
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main() -> int:
    source, target = sys.argv[1], sys.argv[2]
    timeout = int(sys.argv[3]) if len(sys.argv) > 3 else 600
    notebook = nbformat.read(source, as_version=4)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": "."}})
    try:
        client.execute()
        return 0
    except CellExecutionError as error:
        print(str(error)[-4000:], file=sys.stderr)
        return 1
    finally:
        nbformat.write(notebook, target)


if __name__ == "__main__":
    sys.exit(main())
