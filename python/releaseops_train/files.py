"""Crash-safe file writes: readers (the server's /train/* routes) never see a half-written file."""

import json
import os
import threading
from typing import Any

_append_lock = threading.Lock()


def write_json_atomic(path: str, value: Any) -> None:
    """Writes JSON to ``path`` through a temporary file and a rename (atomic on POSIX)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    temporary = "%s.tmp-%d" % (path, os.getpid())
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=1, allow_nan=False, default=_jsonable)
        handle.write("\n")
    os.replace(temporary, path)


def append_jsonl(path: str, value: Any) -> None:
    """Appends one JSON line (whole lines only, thread-safe within the process)."""
    line = json.dumps(value, allow_nan=False, default=_jsonable, separators=(",", ":")) + "\n"
    with _append_lock:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line)


def _jsonable(value: Any) -> Any:
    """Numbers from torch/numpy (``.item()``) and anything else as text, so a metric never breaks a write."""
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    return str(value)


def finite_or_none(value: Any) -> Any:
    """JSON has no NaN/Infinity: such floats become null (TRL logs NaN for an empty reward group)."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    return value


def clean_log_row(row: dict) -> dict:
    """A log-history row with non-finite floats replaced by null."""
    return {key: finite_or_none(value) for key, value in row.items()}
