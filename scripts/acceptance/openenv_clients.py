"""Drives a running ReleaseOps server with OpenEnv's own clients (imported from the OpenEnv checkout,
unmodified): GenericEnvClient sync and async, MCPToolClient over /ws (step mode) and over /mcp
(production mode), rejected calls included. Prints one line per check and exits non-zero on a failure.
Used by scripts/acceptance/openenv.sh."""

import asyncio
import sys
import traceback

from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation
from openenv.core.generic_client import GenericEnvClient
from openenv.core.mcp_client import MCPToolClient

BASE = sys.argv[1].rstrip("/")
REJECTED = [("no_such_tool", {}), ("inspect_ticket", {"ticket_id": "none"}), ("hold_release", {"reason_code": 7})]
results = []


def check(name):
    def wrap(fn):
        try:
            detail = asyncio.run(fn()) if asyncio.iscoroutinefunction(fn) else fn()
            results.append(True)
            print("ok   %s%s" % (name, (": " + detail) if detail else ""))
        except Exception:  # report every client-side exception, whatever it is
            results.append(False)
            print("FAIL %s\n%s" % (name, traceback.format_exc()))
        return fn

    return wrap


@check("GenericEnvClient sync: 20 episodes, state")
def _generic_sync():
    with GenericEnvClient(base_url=BASE).sync() as env:
        for seed in range(20):
            result = env.reset(seed=seed)
            assert result.done is False and result.reward == 0.0, result
            step = env.step({"tool": "hold_release", "arguments": {"reason_code": "awaiting_fix"}})
            assert isinstance(step.reward, (int, float)), step
        state = env.state()
        assert state["step_count"] == 1, state
        bad = env.step({"tool": "no_such_tool", "arguments": {}})
        assert bad.reward == -0.25, bad
    return "last state %s" % {k: state[k] for k in ("episode_id", "step_count")}


@check("GenericEnvClient async: 16 concurrent episodes")
async def _generic_async():
    async def one(seed):
        async with GenericEnvClient(base_url=BASE) as env:
            await env.reset(seed=seed)
            return (await env.step({"tool": "hold_release", "arguments": {"reason_code": "policy_unclear"}})).reward

    rewards = await asyncio.gather(*(one(seed) for seed in range(16)))
    assert len(rewards) == 16
    return "rewards %s" % sorted(set(rewards))


@check("MCPToolClient step mode (/ws): list_tools, call_tool, rejected calls")
async def _mcp_step_mode():
    async with MCPToolClient(base_url=BASE) as env:
        await env.reset(seed=3)
        tools = await env.list_tools()
        assert tools and all(tool.input_schema for tool in tools)
        rejected = []
        for name, arguments in REJECTED:
            step = await env.step(CallToolAction(tool_name=name, arguments=arguments))
            obs = step.observation
            assert isinstance(obs, CallToolObservation) and obs.error is None, obs
            assert obs.result["is_error"] is True and step.reward == -0.25, (obs.result, step.reward)
            text = await env.call_tool(name, **arguments)  # a tool failure: its text, no exception
            assert isinstance(text, str) and "error" in text, text
            rejected.append("%s -> is_error, reward %s" % (name, step.reward))
        text = await env.call_tool("hold_release", reason_code="awaiting_fix")
        assert isinstance(text, str)
    return "%d tools; %s" % (len(tools), "; ".join(rejected))


@check("MCPToolClient production mode (/mcp): list_tools, call_tool, rejected calls")
async def _mcp_production_mode():
    env = MCPToolClient(base_url=BASE)
    env.use_production_mode = True
    try:
        tools = await env.list_tools()
        assert tools, "no tools"
        for name, arguments in REJECTED:
            text = await env.call_tool(name, **arguments)
            assert isinstance(text, str) and "error" in text, text
        text = await env.call_tool("hold_release", reason_code="awaiting_fix")
        assert isinstance(text, str), text
    finally:
        await env.close()
    return "%d tools; rejected calls answered as text" % len(tools)


print("clients: %d/%d" % (sum(results), len(results)))
sys.exit(0 if all(results) else 1)
