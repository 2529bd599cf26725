"""OpenEnv's ``/ws`` protocol driven with the real ``websockets`` package, exactly as OpenEnv's
``EnvClient`` drives it (``websockets.asyncio.client.connect(url, open_timeout=10, max_size=100 MB)``,
``{"type": "reset", "data": kwargs}``, the action itself as step ``data``, errors raised with their code)."""

import asyncio
import json
import unittest

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .openenv_faithful import CallToolObservation, MCPToolClient, ToolError, ValidationError
from .support import expected_episode, server_url


def ws_url(base):
    return base.replace("https://", "wss://").replace("http://", "ws://").rstrip("/") + "/ws"


class OpenEnvStyleClient:
    """The request/reply loop of OpenEnv's EnvClient (env_client.py), in miniature."""

    def __init__(self, url):
        self.url = url
        self.ws = None

    async def connect(self):
        self.ws = await connect(self.url, open_timeout=10, max_size=100 * 1024 * 1024)

    async def send_and_receive(self, message, timeout=60.0):
        await self.ws.send(json.dumps(message))
        response = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if response.get("type") == "error":
            data = response.get("data", {})
            raise RuntimeError("Server error: %s (code: %s)" % (data.get("message"), data.get("code")))
        return response

    async def reset(self, **kwargs):
        payload = (await self.send_and_receive({"type": "reset", "data": kwargs}))["data"]
        return payload.get("observation", {}), payload.get("reward"), payload.get("done", False), payload.get("metadata")

    async def step(self, action):
        payload = (await self.send_and_receive({"type": "step", "data": action}))["data"]
        return payload.get("observation", {}), payload.get("reward"), payload.get("done", False), payload.get("metadata")

    async def state(self):
        return (await self.send_and_receive({"type": "state"}))["data"]

    async def disconnect(self):
        await self.ws.send(json.dumps({"type": "close"}))
        await self.ws.close()


class OpenEnvWebSocketTest(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.expected = expected_episode()
        self.base = "%s/envs/%s" % (server_url(), self.expected["env_id"])
        self.url = ws_url(self.base)

    async def test_episode_metadata_kept_and_identical_to_in_process(self):
        client = OpenEnvStyleClient(self.url)
        await client.connect()
        row = self.expected["row"]
        observation, reward, done, metadata = await client.reset(seed=row["seed"], options={k: v for k, v in row.items() if k != "seed"})
        self.assertEqual(reward, 0.0)
        self.assertFalse(done)
        self.assertEqual(metadata["text"], self.expected["reset_text"])
        self.assertEqual(observation["metadata"], metadata, "metadata is kept inside the observation too (OpenEnv #616)")
        for step in self.expected["steps"]:
            observation, reward, done, metadata = await client.step({"tool": step["tool"], "arguments": step["arguments"]})
            self.assertEqual(metadata["text"], step["text"])
            self.assertEqual(reward, step["reward"])
            self.assertEqual(done, step["done"])
            self.assertEqual(done, metadata["terminated"] or metadata["truncated"])
        state = await client.state()
        self.assertEqual(state["step_count"], len(self.expected["steps"]))
        await client.disconnect()

    async def test_errors_raise_like_env_client_and_the_connection_stays_open(self):
        client = OpenEnvStyleClient(self.url)
        await client.connect()
        with self.assertRaisesRegex(RuntimeError, r"code: UNKNOWN_TYPE"):
            await client.send_and_receive({"type": "teleport"})
        with self.assertRaisesRegex(RuntimeError, r"code: VALIDATION_ERROR"):
            await client.send_and_receive({"type": "reset", "data": {"seed": "x"}})
        with self.assertRaisesRegex(RuntimeError, r"code: EXECUTION_ERROR"):
            await client.step({"tool": "hold_release", "arguments": {"reason_code": "awaiting_fix"}})
        await client.ws.send("{not json")
        self.assertEqual(json.loads(await client.ws.recv())["data"]["code"], "INVALID_JSON")
        _, reward, _, metadata = await client.reset(seed=1)
        self.assertEqual(reward, 0.0)
        _, reward, _, metadata = await client.step({"tool": "no_such_tool", "arguments": {}})
        self.assertEqual(reward, -0.25)
        self.assertEqual(metadata["error"]["code"], "unknown_tool")
        await client.disconnect()

    async def test_mcp_tool_client_step_mode_including_rejected_calls(self):
        client = MCPToolClient(self.base)
        await client.connect()
        await client.reset(seed=2)
        tools = await client.list_tools()
        self.assertEqual([tool.name for tool in tools], self.expected["tool_names"])
        for name, arguments in [("no_such_tool", {}), ("inspect_ticket", {"ticket_id": "none"}), ("hold_release", {"reason_code": 7})]:
            result = await client.step({"type": "call_tool", "tool_name": name, "arguments": arguments})
            observation = result["observation"]
            self.assertIsInstance(observation, CallToolObservation)
            self.assertIsNone(observation.error, "a tool failure is in the result, not in the framework error")
            self.assertTrue(observation.result["is_error"])
            self.assertEqual(result["reward"], -0.25)
            self.assertIn(observation.metadata["error"]["message"], observation.result["data"])
        text = await client.call_tool("no_such_tool")
        self.assertIn("Unknown tool: no_such_tool", text)
        self.assertIsInstance(await client.call_tool("hold_release", reason_code="policy_unclear"), str)
        await client.close()

    async def test_mcp_tool_client_production_mode_including_rejected_calls(self):
        client = MCPToolClient(self.base, use_production_mode=True)
        tools = await client.list_tools()
        self.assertEqual([tool.name for tool in tools], self.expected["tool_names"])
        self.assertIn("Unknown tool: no_such_tool", await client.call_tool("no_such_tool"))
        self.assertIsInstance(await client.call_tool("inspect_ticket", ticket_id="none"), str)
        await client.close()

    async def test_the_strict_models_reject_what_openenv_rejects(self):
        with self.assertRaisesRegex(ValidationError, "Extra inputs are not permitted"):
            ToolError(error_type="tool_not_found", message="x", code="unknown_tool")
        with self.assertRaises(ValidationError):
            ToolError(error_type="no_such_type", message="x")

    async def test_close_ends_the_session_without_a_reply(self):
        client = OpenEnvStyleClient(self.url)
        await client.connect()
        await client.reset()
        await client.ws.send(json.dumps({"type": "close"}))
        with self.assertRaises(ConnectionClosed):
            await asyncio.wait_for(client.ws.recv(), 5)
        self.assertEqual(client.ws.close_code, 1000)


if __name__ == "__main__":
    unittest.main()
