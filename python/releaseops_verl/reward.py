"""The terminal answer and its reward, as the TypeScript env judges ``final_response``, and VeRL's
``compute_score`` entry point.

The answer must be exactly one JSON object ``{"answer": <choice_id>, "level": <level code>}`` (duplicate
keys, extra keys, Markdown, unknown ids or levels score 0 with a coded reason); the reward is 1.0 iff the
choice decodes to the ground-truth category and the level is the ground-truth level. Which text is the
answer is the answer contract (``final_answer_text``, the grading env's README), the same rule as the
TypeScript gate's: ``compute_score`` first cuts the final assistant turn out of a decoded multi-turn
response (VeRL's reward managers decode the whole response, tool turns included, with special tokens
skipped), drops the generation prompt's prefill and the think block. A turn that wrote its answer inside a
tool call has no answer: its text is the call's markup (``answer_not_json``).
"""

import json
from typing import Any, Dict, List, Mapping, Optional

from .task import GradingTask, TaskBundle, load_task_bundle

_END_MARKERS = ("<|im_end|>", "<|endoftext|>")
# Names the answer rule; the TypeScript gate reports the same id (`gradingAnswerContract`).
ANSWER_CONTRACT = "releaseops-grading-answer-v1"


class _DuplicateKey(ValueError):
    pass


def _reject_duplicates(pairs: List[Any]) -> Dict[str, Any]:
    result: Dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey('duplicate key "%s"' % key)
        result[key] = value
    return result


def _utf16_order(key: str) -> bytes:
    # JavaScript sorts strings by UTF-16 code units; the env's reasons list keys that way.
    return key.encode("utf-16-be", "surrogatepass")


def parse_final_answer(text: Any, task: GradingTask) -> Dict[str, Any]:
    """``{"ok": True, "choice_id", "category_id", "level"}`` or ``{"ok": False, "code", "reason"}``."""

    def rejected(code: str, reason: str) -> Dict[str, Any]:
        return {"ok": False, "code": code, "reason": reason}

    if not isinstance(text, str) or not text.strip():
        return rejected("empty_answer", "final answer must be a non-empty JSON object")
    try:
        value = json.loads(text, object_pairs_hook=_reject_duplicates)
    except (ValueError, RecursionError) as error:
        return rejected("answer_not_json", "final answer must be exactly one JSON object: %s" % error)
    if not isinstance(value, dict):
        return rejected("answer_not_object", "final answer must be a JSON object")
    keys = sorted(value, key=_utf16_order)
    if keys != ["answer", "level"]:
        listed = json.dumps(keys, ensure_ascii=False, separators=(",", ":"))
        return rejected("answer_keys", "final answer must contain exactly answer and level, got %s" % listed)
    answer, level = value["answer"], value["level"]
    if not isinstance(answer, str) or not answer.strip():
        return rejected("answer_invalid", "final answer.answer must be a non-empty opaque choice id")
    if not isinstance(level, str) or not level.strip():
        return rejected("level_invalid", "final answer.level must be a non-empty level code")
    choice_id, level_code = answer.strip(), level.strip()
    if choice_id not in task.category_by_choice:
        return rejected("unknown_choice_id", "final answer.answer is not a known opaque choice id")
    if level_code not in task.levels:
        return rejected("unknown_level", "final answer.level is outside the approved rubric")
    return {"ok": True, "choice_id": choice_id, "category_id": task.category_by_choice[choice_id], "level": level_code}


def judge_answer(text: Any, task: GradingTask, ground_truth: str, ground_truth_level: str) -> Dict[str, Any]:
    """The env's ``final`` object for this reply (``valid``, ``answer``/``code``+``reason``, ``reward``)."""
    parsed = parse_final_answer(text, task)
    if not parsed["ok"]:
        return {
            "valid": False,
            "code": parsed["code"],
            "reason": parsed["reason"],
            "category_correct": False,
            "level_correct": False,
            "reward": 0,
        }
    category_correct = parsed["category_id"] == ground_truth
    level_correct = parsed["level"] == ground_truth_level
    return {
        "valid": True,
        "answer": {"choice_id": parsed["choice_id"], "level": parsed["level"]},
        "category_correct": category_correct,
        "level_correct": level_correct,
        "reward": 1 if category_correct and level_correct else 0,
    }


def split_reasoning(text: str, open_think: bool = False) -> str:
    """The reply after its think block, as the Qwen templates and the TypeScript parser read it: the text
    after the first ``</think>``; with no ``</think>``, nothing when the block was opened (by the prompt,
    ``open_think``, or by a leading ``<think>``), else the whole text."""
    close_at = text.find("</think>")
    if close_at == -1:
        open_at = text.find("<think>")
        if open_think or (open_at != -1 and not text[:open_at].strip()):
            return ""
        return text
    return text[close_at + len("</think>") :].lstrip("\n")


def _without_prefill(text: str, prefill: str) -> str:
    return text[len(prefill) :] if prefill and text.startswith(prefill) else text


def final_answer_text(response: str, open_think: bool = False, prefill: str = "") -> str:
    """The final reply's answer text: the answer contract (``ANSWER_CONTRACT``, the grading env's README),
    line for line the TypeScript gate's ``finalAnswerText``.

    ``response`` is the last assistant turn's own tokens decoded (``open_think``: the generation prompt
    opened a think block), or a whole multi-turn response as VeRL's reward managers decode it, tool turns
    included, with or without special tokens: then the final turn starts after the last
    ``<|im_start|>assistant`` (or ``</tool_response>`` … ``assistant``), and the generation prompt's own text
    there (``prefill``: ``<think>\\n``, or the empty think block when thinking is off) is dropped first, so
    both read the model's tokens alike. Then the think block goes (up to the first ``</think>``; an open
    block that never closes leaves nothing), then trailing end-of-turn markers and surrounding whitespace.
    Nothing else is removed: a fence, a second object, prose or tool-call markup fails the strict parse.
    """
    text = response
    marker = "<|im_start|>assistant\n"
    if marker in text:
        text = _without_prefill(text[text.rindex(marker) + len(marker) :], prefill)
    elif "</tool_response>" in text:
        text = text[text.rindex("</tool_response>") + len("</tool_response>") :]
        rest = text
        for token in ("<|im_end|>", "\n", "<|im_start|>"):
            rest = rest[len(token) :] if rest.startswith(token) else rest
        if rest.startswith("assistant\n"):
            text = _without_prefill(rest[len("assistant\n") :], prefill)
    text = split_reasoning(text, open_think)
    changed = True
    while changed:
        changed = False
        stripped = text.rstrip()
        for end in _END_MARKERS:
            if stripped.endswith(end):
                text = stripped[: -len(end)]
                changed = True
    return text.strip()


def _route(data_source: str, extra_info: Optional[Mapping[str, Any]], bundle: TaskBundle) -> Mapping[str, Any]:
    dataset, _, stage = str(data_source).rpartition("/")
    if stage != "stage1" or not dataset:
        raise ValueError("data_source must be '<dataset>/stage1' for a native-tool episode, got %r" % data_source)
    if not isinstance(extra_info, Mapping):
        raise ValueError("extra_info must be a mapping")
    if extra_info.get("dataset") != dataset or extra_info.get("stage") != "stage1":
        raise ValueError("extra_info dataset/stage must match data_source %r" % data_source)
    if extra_info.get("trajectory_format") not in (None, bundle.trajectory_format):
        raise ValueError("extra_info.trajectory_format must be %s" % bundle.trajectory_format)
    return extra_info


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: str,
    extra_info: Optional[Mapping[str, Any]] = None,
    **_: Any,
) -> float:
    """VeRL's custom reward: 1.0 iff the final answer's category and level are both right, else 0.0.

    A routing or label problem (another dataset, a level outside the rubric) raises: that is a broken run,
    not a model failure.
    """
    bundle = load_task_bundle()
    info = _route(data_source, extra_info, bundle)
    task = bundle.task(str(info["dataset"]))
    level = info.get("ground_truth_level")
    if not isinstance(level, str) or level.strip() not in task.levels:
        raise ValueError("extra_info.ground_truth_level %r is outside the approved rubric" % (level,))
    if ground_truth not in {category["category_id"] for category in task.categories}:
        raise ValueError("ground truth %r is not a registry category" % (ground_truth,))
    text = final_answer_text(solution_str, open_think=bundle.open_think, prefill=bundle.generation_prefill)
    verdict = judge_answer(text, task, ground_truth, level.strip())
    return float(verdict["reward"])
