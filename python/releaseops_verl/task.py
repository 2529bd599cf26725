"""One classification-and-grading task: registry, corpus, grading standard and task config, read the way
the TypeScript env reads them (ids and names trimmed, a missing name defaults to the id, display names are
the leaf name or its shortest unique path suffix), plus the native-v2 system prompt.

``load_task_bundle(path)`` reads the ``task.json`` that ``releaseops verl config`` writes beside a run: each
file's SHA-256 is checked against the bundle before it is used.
"""

import hashlib
import json
import os
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence

from .text import dumps_compact

NATIVE_METADATA_FIELDS = ("field_name", "table_name", "field_description", "table_description")
TRAJECTORY_FORMAT = "qwen3.5-native-tools-v2"
TASK_BUNDLE_FORMAT = "releaseops-verl-task-v1"

SYSTEM_PREAMBLE = (
    "You classify one database field into one category and assign a sensitivity level.\n"
    'The full category catalog is listed below as "choice_id|name" lines; recall '
    "candidates from this catalog directly using field and table semantics. When "
    "candidate names alone are ambiguous, call get_category_details or "
    "get_category_examples on the candidate ids to inspect definitions and samples. "
    "If the catalog seems insufficient you may call search_categories(field_name, "
    "table_name) once as a fallback hint. Make at most three tool calls total.\n"
    "Your terminal response must be exactly one JSON object with keys answer and "
    "level. answer must be an opaque choice_id from the catalog, never a category "
    "name or canonical id. level must be one approved sensitivity code. Do not "
    "output reasoning, Markdown, or extra keys.\n"
    "Approved sensitivity levels:\n"
)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _registry_categories(raw: Any) -> List[Dict[str, Any]]:
    items = raw if isinstance(raw, list) else (raw or {}).get("categories")
    if not isinstance(items, list):
        raise ValueError("a leaf registry needs a categories list")
    categories = []
    for item in items:
        if isinstance(item, str):
            item = {"category_id": item}
        category_id = _text(item.get("category_id")).strip()
        if not category_id:
            raise ValueError("registry category_id must be a non-empty string")
        categories.append(
            {
                "category_id": category_id,
                "name": _text(item.get("name")).strip() or category_id,
                "description": _text(item.get("description")).strip(),
                "path": [_text(part).strip() for part in item.get("path") or []],
            }
        )
    if len(categories) < 5:
        raise ValueError("a leaf registry needs at least 5 categories")
    if len({category["category_id"] for category in categories}) != len(categories):
        raise ValueError("registry category ids must be unique")
    return categories


def _corpus_entries(raw: Any) -> Dict[str, Dict[str, Any]]:
    entries = {}
    for item in (raw or {}).get("categories") or []:
        category_id = _text(item.get("category_id")).strip()
        entries[category_id] = {
            "description": _text(item.get("description")),
            "descriptions": [_text(part) for part in item.get("descriptions") or []],
            "examples": [_text(part) for part in item.get("examples") or []],
            "path": [_text(part).strip() for part in item.get("path") or []],
        }
    return entries


def _display_names(categories: Sequence[Dict[str, Any]]) -> List[str]:
    counts = Counter(category["name"] for category in categories)

    def parts(category: Dict[str, Any]) -> List[str]:
        path = list(category["path"])
        if not path or path[-1] != category["name"]:
            path.append(category["name"])
        return path

    all_parts = [parts(category) for category in categories]
    names = []
    for index, category in enumerate(categories):
        if counts[category["name"]] == 1:
            names.append(category["name"])
            continue
        path = all_parts[index]
        for depth in range(1, len(path) + 1):
            candidate = " / ".join(path[-depth:])
            if not any(other != index and " / ".join(parts_[-depth:]) == candidate for other, parts_ in enumerate(all_parts)):
                names.append(candidate)
                break
        else:
            raise ValueError("cannot build a unique display name for %r" % category["category_id"])
    if len(set(names)) != len(names):
        raise ValueError("display names must be unique")
    return names


class GradingTask:
    """The task a dataset's episodes run on (the tools need only registry and corpus; rewards need grading)."""

    def __init__(self, registry: Any, corpus: Any, grading: Any, task_config: Optional[Any] = None):
        self.categories = _registry_categories(registry)
        self.corpus = _corpus_entries(corpus)
        missing = [c["category_id"] for c in self.categories if c["category_id"] not in self.corpus]
        extra = sorted(set(self.corpus) - {c["category_id"] for c in self.categories})
        if missing or extra:
            raise ValueError("the corpus must cover the registry exactly (missing %s, extra %s)" % (missing, extra))
        self.display_names = _display_names(self.categories)
        self.choice_ids = [str(index + 1) for index in range(len(self.categories))]
        self.category_by_choice = {choice: c["category_id"] for choice, c in zip(self.choice_ids, self.categories)}
        self.levels = [_text(level).strip() for level in grading["levels"]]
        descriptions = grading.get("descriptions")
        self.level_descriptions = [_text(text) for text in descriptions] if descriptions is not None else [""] * len(self.levels)
        self.gt_field = _text(grading.get("gt_field") or "data_level").strip()
        config = task_config or {}
        fields = config.get("metadata_fields") or list(NATIVE_METADATA_FIELDS)
        self.metadata_fields = [_text(field).strip() for field in fields]
        self.task_name = _text(config.get("task_name") or "data_classification").strip()

    def rubric(self) -> List[List[str]]:
        return [[code, text] for code, text in zip(self.levels, self.level_descriptions)]

    def system_prompt(self) -> str:
        catalog = "\n".join("%s|%s" % (choice, name) for choice, name in zip(self.choice_ids, self.display_names))
        return SYSTEM_PREAMBLE + dumps_compact(self.rubric()) + "\nCatalog (choice_id|name):\n" + catalog

    def user_prompt(self, metadata: Dict[str, Any]) -> str:
        ordered = {field: _metadata_text(metadata.get(field)) for field in self.metadata_fields}
        return "Classify this field metadata:\n" + dumps_compact(ordered)


def _metadata_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def _read_verified(base: str, entry: Dict[str, str], kind: str) -> Any:
    path = os.path.join(base, entry["path"])
    with open(path, "rb") as handle:
        data = handle.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != entry["sha256"]:
        raise ValueError("%s %s has sha256 %s, the task bundle records %s" % (kind, path, digest, entry["sha256"]))
    return json.loads(data.decode("utf-8-sig"))


class TaskBundle:
    """Every dataset's task of one run, from ``task.json`` (hash-verified)."""

    def __init__(self, path: str):
        with open(path, "r", encoding="utf-8") as handle:
            bundle = json.load(handle)
        if bundle.get("format") != TASK_BUNDLE_FORMAT:
            raise ValueError("%s is not a %s file" % (path, TASK_BUNDLE_FORMAT))
        base = os.path.dirname(os.path.abspath(path))
        registry = _read_verified(base, bundle["registry"], "registry")
        corpus = _read_verified(base, bundle["corpus"], "corpus")
        task_config = _read_verified(base, bundle["task_config"], "task config") if bundle.get("task_config") else None
        self.trajectory_format = bundle.get("trajectory_format", TRAJECTORY_FORMAT)
        # The run's chat-template thinking flag, and what follows from it for the family's template: whether
        # the generation prompt opens a think block, and the text it prefills after `<|im_start|>assistant\n`.
        # A bundle that does not say is read as Qwen3.5's template.
        self.enable_thinking = bool(bundle.get("enable_thinking", False))
        self.open_think = bool(bundle.get("open_think", self.enable_thinking))
        default_prefill = "<think>\n" if self.enable_thinking else "<think>\n\n</think>\n\n"
        self.generation_prefill = str(bundle.get("generation_prefill", default_prefill))
        self.tasks: Dict[str, GradingTask] = {}
        for dataset, entry in sorted(bundle["datasets"].items()):
            grading = _read_verified(base, entry["grading"], "grading standard")
            self.tasks[dataset] = GradingTask(registry, corpus, grading, task_config)
        if not self.tasks:
            raise ValueError("the task bundle names no dataset")

    def task(self, dataset: str) -> GradingTask:
        if dataset not in self.tasks:
            raise ValueError("dataset %r is not in the task bundle (%s)" % (dataset, ", ".join(self.tasks)))
        return self.tasks[dataset]

    def any_task(self) -> GradingTask:
        return next(iter(self.tasks.values()))


_BUNDLES: Dict[str, TaskBundle] = {}
TASK_ENVIRONMENT_VARIABLE = "RELEASEOPS_VERL_TASK"


def default_bundle_path() -> str:
    """``$RELEASEOPS_VERL_TASK``, else the ``task.json`` beside this package (a run directory's copy)."""
    configured = os.environ.get(TASK_ENVIRONMENT_VARIABLE, "")
    if configured:
        return configured
    beside = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "task.json")
    return beside if os.path.isfile(beside) else ""


def load_task_bundle(path: Optional[str] = None) -> TaskBundle:
    """The run's task bundle, read and hash-verified once per process."""
    resolved = path or default_bundle_path()
    if not resolved:
        raise RuntimeError(
            "no task bundle: set %s to the task.json written by `releaseops verl config`" % TASK_ENVIRONMENT_VARIABLE
        )
    resolved = os.path.abspath(resolved)
    if resolved not in _BUNDLES:
        _BUNDLES[resolved] = TaskBundle(resolved)
    return _BUNDLES[resolved]
