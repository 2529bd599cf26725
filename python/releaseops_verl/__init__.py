"""Grading-task adapters for VeRL, standard library only (VeRL itself is imported only where a module
registers with it): the four function tools, ``compute_score``, and an agent loop, all byte-compatible
with the TypeScript ``grading-v1`` env."""

from .reward import compute_score, final_answer_text, judge_answer, parse_final_answer
from .task import GradingTask, TaskBundle, load_task_bundle
from .tools import TOOL_NAMES, GradingTools

__all__ = [
    "TOOL_NAMES",
    "GradingTask",
    "GradingTools",
    "TaskBundle",
    "compute_score",
    "final_answer_text",
    "judge_answer",
    "load_task_bundle",
    "parse_final_answer",
]
