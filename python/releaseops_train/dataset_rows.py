"""Dataset rows for GRPO: the JSONL ``releaseops dataset`` writes (one row per line: ``prompt`` messages,
``seed`` and the env's reset fields). Rows are checked before anything is trained."""

import json
import random
from typing import Any, Dict, List, Optional


class DatasetError(ValueError):
    """A dataset file that cannot be trained on; the message names the file and line."""


def load_rows(path: str, max_rows: Optional[int] = None, seed: int = 0) -> List[Dict[str, Any]]:
    """The rows of ``path``, shuffled with ``seed`` (GRPO sees families mixed), the first ``max_rows``."""
    rows = []
    try:
        handle = open(path, encoding="utf-8")
    except OSError as error:
        raise DatasetError("cannot read dataset %s: %s" % (path, error)) from None
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            where = "%s:%d" % (path, number)
            try:
                row = json.loads(line)
            except ValueError as error:
                raise DatasetError("%s: not JSON (%s)" % (where, error)) from None
            if not isinstance(row, dict):
                raise DatasetError("%s: a row must be a JSON object" % where)
            if not isinstance(row.get("seed"), int) or isinstance(row.get("seed"), bool):
                raise DatasetError("%s: seed must be an integer" % where)
            prompt = row.get("prompt")
            if not isinstance(prompt, list) or not prompt or not all(
                isinstance(message, dict) and isinstance(message.get("role"), str) and isinstance(message.get("content"), str)
                for message in prompt
            ):
                raise DatasetError("%s: prompt must be a non-empty list of {role, content} messages" % where)
            if prompt[-1]["role"] not in ("user", "system"):
                raise DatasetError("%s: the prompt must end with a user message (the observation is appended to it)" % where)
            rows.append(row)
    if not rows:
        raise DatasetError("dataset %s has no rows" % path)
    random.Random(seed).shuffle(rows)
    return rows[:max_rows] if max_rows else rows
