"""Tool-argument validation with the TypeScript env's exact outcomes and messages.

The env validates arguments with zod schemas (strict objects); a bad call becomes the observation
``{"error": {"code": "invalid_arguments", "message": ...}}``. This module reproduces those schemas for the
four grading tools and zod's messages ("field_name: Invalid input: expected string, received number",
"Unrecognized keys: ...", "Too big: expected array to have <=5 items", ...), so a tool result is the same
text whichever side computed it.
"""

import json
import math
import re
from typing import Any, Dict, List, Optional, Tuple

MAX_SAFE_INTEGER = 9007199254740991
MISSING = object()
_MISSING = MISSING
_ARRAY_INDEX = re.compile(r"^(?:0|[1-9][0-9]*)$")

# Per tool: (name, kind, default) in schema order; kind is "string", "optional_string", "int" or "string_list".
SCHEMAS: Dict[str, List[Tuple[str, str, Any]]] = {
    "search_categories": [
        ("field_name", "string", _MISSING),
        ("table_name", "string", _MISSING),
        ("top_k", "int", 5),
        ("scope", "optional_string", _MISSING),
    ],
    "get_category_details": [("choice_ids", "string_list", _MISSING)],
    "get_category_examples": [("choice_ids", "string_list", _MISSING), ("limit", "int", 2)],
    "browse_categories": [],
}
MAX_CHOICE_IDS = 5


class ArgumentsError(ValueError):
    """Arguments the env would refuse; ``message`` is the env's text."""

    code = "invalid_arguments"


def received(value: Any) -> str:
    """zod's name for the type of a JSON value."""
    if value is _MISSING:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return "number"
    if isinstance(value, int):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object"


def _invalid(expected: str, value: Any) -> str:
    return "Invalid input: expected %s, received %s" % (expected, received(value))


def _check_int(value: Any) -> Tuple[Optional[int], Optional[str]]:
    kind = received(value)
    if kind != "number":
        return None, _invalid("number", value)
    if isinstance(value, float) and not value.is_integer():
        return None, _invalid("int", value)
    number = int(value)
    if number > MAX_SAFE_INTEGER:
        return None, "Too big: expected int to be <=%d" % MAX_SAFE_INTEGER
    if number < -MAX_SAFE_INTEGER:
        return None, "Too small: expected int to be >=-%d" % MAX_SAFE_INTEGER
    return number, None


def _key_order(keys: List[str]) -> List[str]:
    """A JavaScript object's key order: array-index keys first, ascending, then insertion order."""
    indexes = sorted((key for key in keys if _ARRAY_INDEX.match(key) and int(key) < 2**32 - 1), key=int)
    return indexes + [key for key in keys if key not in indexes]


def _parse_json_text(tool: str, text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(constant)

    try:
        return json.loads(text, parse_constant=refuse)
    except ValueError:
        raise ArgumentsError("Arguments for %s are not valid JSON." % tool) from None


def validate_arguments(tool: str, raw: Any = _MISSING) -> Dict[str, Any]:
    """The parsed arguments (defaults filled), or ``ArgumentsError`` with the env's message.

    ``raw`` is an object or a JSON text holding one (OpenAI sends arguments as text); absent means ``{}``.
    """
    value = {} if raw is _MISSING else raw
    if isinstance(value, str):
        value = _parse_json_text(tool, value)
    if not isinstance(value, dict):
        raise ArgumentsError(_invalid("object", value))
    issues: List[Tuple[str, str]] = []
    parsed: Dict[str, Any] = {}
    for name, kind, default in SCHEMAS[tool]:
        item = value.get(name, _MISSING)
        if kind == "string" or (kind == "optional_string" and item is not _MISSING):
            if isinstance(item, str):
                parsed[name] = item
            else:
                issues.append((name, _invalid("string", item)))
        elif kind == "int":
            if item is _MISSING:
                parsed[name] = default
            else:
                number, problem = _check_int(item)
                if problem:
                    issues.append((name, problem))
                else:
                    parsed[name] = number
        elif kind == "string_list":
            if not isinstance(item, list):
                issues.append((name, _invalid("array", item)))
            elif len(item) < 1:
                issues.append((name, "Too small: expected array to have >=1 items"))
            elif len(item) > MAX_CHOICE_IDS:
                issues.append((name, "Too big: expected array to have <=%d items" % MAX_CHOICE_IDS))
            else:
                bad = [(index, element) for index, element in enumerate(item) if not isinstance(element, str)]
                issues.extend(("%s.%d" % (name, index), _invalid("string", element)) for index, element in bad)
                if not bad:
                    parsed[name] = list(item)
    known = {name for name, _, _ in SCHEMAS[tool]}
    unknown = [key for key in _key_order([str(key) for key in value]) if key not in known]
    if unknown:
        label = "Unrecognized key" if len(unknown) == 1 else "Unrecognized keys"
        issues.append(("", "%s: %s" % (label, ", ".join('"%s"' % key for key in unknown))))
    if issues:
        raise ArgumentsError("; ".join("%s: %s" % (path, message) if path else message for path, message in issues))
    return parsed
