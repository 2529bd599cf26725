"""VeRL function tools for the grading task (``actor_rollout_ref.rollout.multi_turn.function_tool_path``).

VeRL executes this file by path, so it puts its own package on ``sys.path`` first. Each tool is registered
with the exact OpenAI schema the TypeScript env publishes (``tool_schemas.json`` beside ``task.json``,
written by ``releaseops verl config``), and answers with the env's text for the call: the same bytes the
SFT trajectories and the rollout gate saw. A bad call is an answer the model sees, not an exception.
"""

import json
import os
import sys

_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _PACKAGE_PARENT not in sys.path:
    sys.path.insert(0, _PACKAGE_PARENT)

from releaseops_verl.task import load_task_bundle  # noqa: E402
from releaseops_verl.tools import TOOL_NAMES, GradingTools  # noqa: E402

SCHEMAS_ENVIRONMENT_VARIABLE = "RELEASEOPS_VERL_TOOL_SCHEMAS"
_TOOLS = []


def _tools() -> GradingTools:
    if not _TOOLS:
        _TOOLS.append(GradingTools(load_task_bundle().any_task()))
    return _TOOLS[0]


def tool_schemas() -> list:
    path = os.environ.get(SCHEMAS_ENVIRONMENT_VARIABLE) or os.path.join(_PACKAGE_PARENT, "tool_schemas.json")
    with open(path, "r", encoding="utf-8") as handle:
        schemas = json.load(handle)
    names = [schema["function"]["name"] for schema in schemas]
    if sorted(names) != sorted(TOOL_NAMES):
        raise ValueError("tool_schemas.json declares %s, the grading tools are %s" % (names, list(TOOL_NAMES)))
    return schemas


def search_categories(**arguments):
    return _tools().call("search_categories", arguments)


def get_category_details(**arguments):
    return _tools().call("get_category_details", arguments)


def get_category_examples(**arguments):
    return _tools().call("get_category_examples", arguments)


def browse_categories(**arguments):
    return _tools().call("browse_categories", arguments)


FUNCTIONS = {
    "search_categories": search_categories,
    "get_category_details": get_category_details,
    "get_category_examples": get_category_examples,
    "browse_categories": browse_categories,
}


def register(function_tool) -> None:
    """Registers every tool with VeRL's ``function_tool`` decorator (injectable for tests)."""
    for schema in tool_schemas():
        name = schema["function"]["name"]
        function_tool(name, schema=schema)(FUNCTIONS[name])


try:
    from verl.tools.function_tool import function_tool as _verl_function_tool
except ImportError:  # not inside VeRL: importing this module only defines the functions
    _verl_function_tool = None
if _verl_function_tool is not None:
    register(_verl_function_tool)
