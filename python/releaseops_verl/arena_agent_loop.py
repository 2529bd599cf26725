"""A VeRL agent loop for the ReleaseOps Arena (``releaseops-v3``): each rollout is one session on a
releaseops env server over OpenEnv's ``/ws`` wire.

It is VeRL's own ``ToolAgentLoop`` (chat template, the model family's tool parser, masks, turn and length
limits) with the tool calls sent to the episode's server session instead of local functions: the row's
``extra_info.reset`` resets the session (its first observation must be the text the row's prompt ends
with, else the server runs another env version and the rollout is refused), every parsed call is one
``step``, the tool message is the env's render, and the episode stops when the env says done. The score is
the last reply's ``info.cumulative_reward``: an episode that ends without a ship decision (no call, turn or
length limit) keeps the env's missed-deadline −0.6. A call whose arguments are not JSON gets VeRL's error
text and no step. ``env_outcome`` is how the episode ended (``terminal_outcome``). The env's last
observation, after the ship decision, is dropped from the response: VeRL puts the score on the response's
last token, and that must be the policy's (mask 1), or GAE and any reader of ``rm_scores × response_mask``
loses it. The session is closed with OpenEnv's close message, so the server counts ``client_closed``.

Registered as ``releaseops_arena``; ``releaseops verl config --env releaseops-v3`` writes the agent-loop
YAML naming it (``env_url``, ``tool_schemas_path``). Importing this module without VeRL leaves only the pure
helpers (``arena_row``, ``load_tool_schemas``).
"""

import json
import os
import sys
from typing import Any, Dict, List, Mapping

_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _PACKAGE_PARENT not in sys.path:
    sys.path.insert(0, _PACKAGE_PARENT)

from releaseops_verl.arena_session import ArenaSession, cumulative_reward, terminal_outcome, text_of  # noqa: E402

AGENT_LOOP_NAME = "releaseops_arena"
ARENA_ENV_ID = "releaseops-v3"
TOKEN_ENVIRONMENT_VARIABLE = "RELEASEOPS_ENV_TOKEN"


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    if hasattr(value, "item") and not isinstance(value, (str, bytes, Mapping)):
        return value.item()
    return value


def arena_row(kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    """The row's reset parameters and prompt, after checking it is an Arena row."""
    extra = _plain(kwargs.get("extra_info"))
    if not isinstance(extra, Mapping) or extra.get("env_id") != ARENA_ENV_ID:
        raise ValueError("an Arena rollout needs extra_info with env_id %r" % ARENA_ENV_ID)
    reset = json.loads(str(extra.get("reset")))
    if not isinstance(reset, dict) or not isinstance(reset.get("seed"), int):
        raise ValueError("extra_info.reset must be a JSON object with an integer seed")
    prompt = [dict(message) for message in _plain(kwargs.get("raw_prompt"))]
    if not prompt or prompt[-1].get("role") not in ("user", "system"):
        raise ValueError("raw_prompt must end with the user message holding the first observation")
    return {"reset": reset, "prompt": prompt, "row_id": extra.get("row_id"), "split": extra.get("split")}


def end_on_model_token(response_ids: List[int], response_mask: List[int], response_logprobs: Any = None):
    """The response cut after the policy's last token (mask 1): VeRL's ``_postprocess`` puts ``rm_scores``
    on the response's last token, and env tokens after it (mask 0) carry nothing a policy learns from. A
    response with no policy token is returned as it is."""
    last = max((index for index, bit in enumerate(response_mask) if bit), default=-1)
    if last < 0:
        return response_ids, response_mask, response_logprobs
    keep = last + 1
    return response_ids[:keep], response_mask[:keep], None if response_logprobs is None else response_logprobs[:keep]


def load_tool_schemas(path: str) -> List[Dict[str, Any]]:
    with open(path, "r", encoding="utf-8") as handle:
        schemas = json.load(handle)
    if not isinstance(schemas, list) or not all(schema.get("type") == "function" for schema in schemas):
        raise ValueError("%s is not a list of OpenAI function tools" % path)
    return schemas


try:
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry
    from verl.experimental.agent_loop.agent_loop import register as _register
    from verl.experimental.agent_loop.tool_agent_loop import AgentState as _AgentState
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop as _ToolAgentLoop
    from verl.tools.schemas import OpenAIFunctionToolSchema as _ToolSchema
    from verl.tools.schemas import ToolResponse as _ToolResponse
except ImportError:
    _register = None
    _ToolAgentLoop = None

if _ToolAgentLoop is not None and _register is not None:

    class _SessionTool:
        """A tool VeRL's parser validates calls against; it is executed by the episode's session."""

        def __init__(self, schema: Dict[str, Any]):
            self.tool_schema = _ToolSchema.model_validate(schema)
            self.name = self.tool_schema.function.name

    class ArenaAgentLoop(_ToolAgentLoop):  # type: ignore[misc, valid-type]
        """ToolAgentLoop whose tools are the Arena session's; the score is the env's cumulative reward."""

        def __init__(self, *args: Any, env_url: str = "", tool_schemas_path: str = "", **kwargs: Any):
            kwargs.pop("tools", None)  # the run declares no function tools: the env server owns them
            super().__init__(*args, tools=None, **kwargs)
            if not env_url:
                raise ValueError("the Arena agent loop needs env_url (ws://host:port/envs/releaseops-v3/ws)")
            self.env_url = os.environ.get("RELEASEOPS_ENV_URL") or env_url
            self.token = os.environ.get(TOKEN_ENVIRONMENT_VARIABLE) or None
            tools = [_SessionTool(schema) for schema in load_tool_schemas(tool_schemas_path)]
            self.tools = {tool.name: tool for tool in tools}
            # The view VeRL's own loop renders (its pydantic dump), so prompts match ToolAgentLoop's.
            self.tool_schemas = [tool.tool_schema.model_dump(exclude_unset=True, exclude_none=True) for tool in tools]
            self._session: Any = None
            self._done = False
            self._steps = 0

        async def run(self, sampling_params: Dict[str, Any], **kwargs: Any) -> Any:
            row = arena_row(kwargs)
            async with ArenaSession(self.env_url, token=self.token) as session:
                first = await session.reset(row["reset"])
                if not str(row["prompt"][-1].get("content", "")).endswith(text_of(first)):
                    raise ValueError(
                        "the env server's first observation is not the one this row was written from "
                        "(another env version behind %s?)" % self.env_url
                    )
                self._session = session
                output = await super().run(sampling_params, **kwargs)
                last = session.last or first
            output.reward_score = cumulative_reward(last)
            ids, mask, logprobs = end_on_model_token(output.response_ids, output.response_mask, output.response_logprobs)
            dropped = len(output.response_ids) - len(ids)
            output.response_ids, output.response_mask, output.response_logprobs = ids, mask, logprobs
            if output.routed_experts is not None:
                output.routed_experts = output.routed_experts[: len(output.prompt_ids) + len(ids)]
            output.extra_fields.update(
                {
                    "env_id": ARENA_ENV_ID,
                    "env_steps": self._steps,
                    "env_done": bool(last.get("done")),
                    "env_outcome": terminal_outcome(last),
                    "env_tokens_dropped": dropped,
                }
            )
            return output

        async def _handle_processing_tools_state(self, agent_data: Any) -> Any:
            state = await super()._handle_processing_tools_state(agent_data)
            return _AgentState.TERMINATED if self._done else state

        async def _call_tool(self, tool_call: Any, tools_kwargs: Dict[str, Any], agent_data: Any) -> Any:
            try:
                arguments = json.loads(tool_call.arguments)
            except (json.JSONDecodeError, TypeError) as error:
                return _ToolResponse(text="Invalid JSON in arguments for '%s': %s" % (tool_call.name, error)), 0.0, {}
            if not isinstance(arguments, dict):
                return _ToolResponse(text="Arguments for '%s' must be a JSON object." % tool_call.name), 0.0, {}
            if self._done:
                return _ToolResponse(text="The episode has ended."), 0.0, {}
            # Unknown tools and bad arguments go to the env too: it answers them, with its penalty.
            reply = await self._session.step(tool_call.name, arguments)
            self._steps += 1
            self._done = bool(reply.get("done"))
            text = text_of(reply)
            if len(text) > self.max_tool_response_length:
                text = text[: self.max_tool_response_length] + "...(truncated)"
            return _ToolResponse(text=text), float(reply.get("reward") or 0.0), {}

    # The run's agent_loop.yaml registers this class with its arguments (env_url, tool_schemas_path); VeRL's
    # `register` would replace that entry with a bare one when Hydra imports this module mid-run.
    if AGENT_LOOP_NAME not in _agent_loop_registry:
        _register(AGENT_LOOP_NAME)(ArenaAgentLoop)

else:
    ArenaAgentLoop = None  # VeRL is not installed here
