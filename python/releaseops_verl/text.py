"""Text primitives of the grading tools, as CPython defines them (the TypeScript env emulates these).

``normalize_key_text`` is NFKC, ``strip``, ``\\s+`` collapsed to one space, then ``casefold``; features are
ASCII tokens, single CJK characters and every character bigram of the whitespace-free key text.
"""

import json
import re
import unicodedata
from typing import Any, FrozenSet

_WHITESPACE_RUN = re.compile(r"\s+")
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
_CJK_CHARACTER = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def collapse_whitespace(value: str) -> str:
    return _WHITESPACE_RUN.sub(" ", value)


def normalize_key_text(value: str) -> str:
    return collapse_whitespace(unicodedata.normalize("NFKC", value).strip()).casefold()


def lexical_features(value: str) -> FrozenSet[str]:
    normalized = normalize_key_text(value)
    compact = normalized.replace(" ", "")
    found = set(_ASCII_TOKEN.findall(normalized))
    found.update(_CJK_CHARACTER.findall(normalized))
    if len(compact) == 1:
        found.add(compact)
    else:
        found.update(compact[index : index + 2] for index in range(len(compact) - 1))
    return frozenset(item for item in found if item)


def short_summary(value: str, limit: int = 240) -> str:
    text = collapse_whitespace(value.strip())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def dumps_unicode(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)``: the text of every tool result."""
    return json.dumps(value, ensure_ascii=False)


def dumps_compact(value: Any) -> str:
    """Compact JSON (``","``, ``":"``, ``ensure_ascii=False``): the text of prompts."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
