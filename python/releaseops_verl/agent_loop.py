"""A VeRL agent loop for grading episodes: VeRL's own ``ToolAgentLoop`` (rendering, qwen3_coder parsing,
tool execution, masks) plus a fail-closed check of each row and the exact reward, computed from the final
contiguous policy segment (the model's last reply) rather than from the whole decoded response.

Registered as ``releaseops_grading``; ``releaseops verl config`` writes the agent-loop YAML that names it.
Importing this module without VeRL leaves only the pure helpers (``final_policy_token_ids``, ``check_row``).
"""

import os
import sys
from typing import Any, Dict, Mapping, Sequence, Tuple

_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _PACKAGE_PARENT not in sys.path:
    sys.path.insert(0, _PACKAGE_PARENT)

from releaseops_verl.reward import final_answer_text, judge_answer  # noqa: E402
from releaseops_verl.task import TaskBundle, load_task_bundle  # noqa: E402
from releaseops_verl.tools import TOOL_NAMES  # noqa: E402

AGENT_LOOP_NAME = "releaseops_grading"
ALLOWED_EXTRA_INFO = {"dataset", "stage", "source_id", "metadata", "ground_truth_level", "trajectory_format"}


def final_policy_token_ids(response_ids: Sequence[int], response_mask: Sequence[int]) -> Tuple[int, ...]:
    """The last contiguous run of policy tokens (mask 1), or () when the response ends on a tool result."""
    if len(response_ids) != len(response_mask):
        raise ValueError("response ids and mask must have the same length")
    if not response_mask or not response_mask[-1]:
        return ()
    start = len(response_mask) - 1
    while start > 0 and response_mask[start - 1]:
        start -= 1
    return tuple(int(token) for token in response_ids[start:])


def _plain(value: Any) -> Any:
    if hasattr(value, "item") and not isinstance(value, (str, bytes, Mapping)):
        try:
            return value.item()
        except (TypeError, ValueError):
            return value
    return value


def check_row(kwargs: Mapping[str, Any], bundle: TaskBundle) -> Dict[str, Any]:
    """The episode's labels, after checking the row is a native-tool stage-1 episode of a bundled dataset."""
    extra = _plain(kwargs.get("extra_info"))
    reward_model = _plain(kwargs.get("reward_model"))
    if not isinstance(extra, Mapping) or not isinstance(reward_model, Mapping):
        raise ValueError("a grading episode needs extra_info and reward_model mappings")
    unexpected = set(extra) - ALLOWED_EXTRA_INFO - {"index", "tools_kwargs", "interaction_kwargs", "need_tools_kwargs"}
    if unexpected:
        raise ValueError("extra_info has unexpected keys: %s" % ", ".join(sorted(map(str, unexpected))))
    if extra.get("stage") != "stage1" or extra.get("trajectory_format") != bundle.trajectory_format:
        raise ValueError("a grading episode must be a stage1 %s row" % bundle.trajectory_format)
    task = bundle.task(str(extra.get("dataset")))
    ground_truth = reward_model.get("ground_truth")
    level = extra.get("ground_truth_level")
    if ground_truth not in {category["category_id"] for category in task.categories}:
        raise ValueError("ground truth %r is not a registry category" % (ground_truth,))
    if level not in task.levels:
        raise ValueError("ground_truth_level %r is outside the approved rubric" % (level,))
    prompt = _plain(kwargs.get("raw_prompt"))
    if not isinstance(prompt, (list, tuple)) or [dict(message).get("role") for message in prompt] != ["system", "user"]:
        raise ValueError("raw_prompt must be exactly [system, user]")
    if ground_truth in "\n".join(str(dict(message).get("content", "")) for message in prompt):
        raise ValueError("the prompt exposes the canonical ground truth")
    return {"task": task, "ground_truth": ground_truth, "level": level}


try:
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry
    from verl.experimental.agent_loop.agent_loop import register as _register
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop as _ToolAgentLoop
except ImportError:
    _register = None
    _ToolAgentLoop = None

if _ToolAgentLoop is not None and _register is not None:

    class GradingAgentLoop(_ToolAgentLoop):  # type: ignore[misc, valid-type]
        """ToolAgentLoop plus the row check and the exact terminal reward."""

        def __init__(self, *args: Any, task_path: str = "", max_tool_calls: int = 3, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.bundle = load_task_bundle(task_path or None)
            if set(self.tools) != set(TOOL_NAMES):
                raise ValueError("the grading agent loop needs exactly the tools %s, got %s" % (TOOL_NAMES, sorted(self.tools)))
            if self.max_parallel_calls != 1:
                raise ValueError("grading episodes make one tool call per turn (max_parallel_calls=1)")
            if self.max_user_turns != max_tool_calls or self.max_assistant_turns != max_tool_calls + 1:
                raise ValueError("grading episodes allow %d tool calls and one answer turn" % max_tool_calls)

        async def run(self, sampling_params: Dict[str, Any], **kwargs: Any) -> Any:
            labels = check_row(kwargs, self.bundle)
            output = await super().run(sampling_params, **kwargs)
            final_ids = final_policy_token_ids(output.response_ids, output.response_mask)
            text = self.tokenizer.decode(list(final_ids), skip_special_tokens=True) if final_ids else ""
            answer = final_answer_text(text, open_think=self.bundle.open_think)
            verdict = judge_answer(answer, labels["task"], labels["ground_truth"], labels["level"])
            output.reward_score = float(verdict["reward"])
            output.extra_fields.update(
                {
                    "trajectory_format": self.bundle.trajectory_format,
                    "terminal_answer_valid": bool(verdict["valid"]),
                    "terminal_exact_match": verdict["reward"] == 1,
                }
            )
            return output

    # agent_loop.yaml registers this class with its arguments; VeRL's `register` would replace that entry
    # with a bare one (task_path and max_tool_calls lost) when Hydra first imports this module mid-run.
    if AGENT_LOOP_NAME not in _agent_loop_registry:
        _register(AGENT_LOOP_NAME)(GradingAgentLoop)

else:
    GradingAgentLoop = None  # VeRL is not installed here
