"""A faithful stand-in for OpenEnv's client side (openenv.core: env_client.py, mcp_client.py and the
pydantic models of env_server/types.py and mcp_types.py), for tests that cannot install OpenEnv.

It is as strict as the peer: OpenEnv's models are pydantic with ``extra="forbid"``, so an unknown key,
a missing required field or an unknown enum value raises ``ValidationError`` here as it does there
(pydantic is not in the test venv, so its strictness is emulated). The parsing follows
``MCPToolClient._parse_result`` and ``call_tool`` line by line; the real thing runs in
``scripts/acceptance/openenv.sh``.
"""

import asyncio
import enum
import json
import urllib.request

from websockets.asyncio.client import connect

_REQUIRED = object()


class ValidationError(ValueError):
    """pydantic.ValidationError's role: the payload does not fit the model."""


class StrictModel:
    """``BaseModel`` with ``model_config = ConfigDict(extra="forbid")``: fields are declared in FIELDS as
    name -> (check, default); ``_REQUIRED`` marks a required field."""

    FIELDS = {}

    def __init__(self, **values):
        extra = sorted(set(values) - set(self.FIELDS))
        if extra:
            raise ValidationError("%s %s: Extra inputs are not permitted" % (type(self).__name__, ", ".join(extra)))
        for name, (check, default) in self.FIELDS.items():
            if name not in values:
                if default is _REQUIRED:
                    raise ValidationError("%s %s: Field required" % (type(self).__name__, name))
                value = default() if callable(default) else default
            else:
                value = check(values[name], "%s.%s" % (type(self).__name__, name))
            setattr(self, name, value)


def _str(value, where):
    if not isinstance(value, str):
        raise ValidationError("%s: Input should be a valid string" % where)
    return value


def _bool(value, where):
    if not isinstance(value, bool):
        raise ValidationError("%s: Input should be a valid boolean" % where)
    return value


def _dict(value, where):
    if not isinstance(value, dict):
        raise ValidationError("%s: Input should be a valid dictionary" % where)
    return value


def _reward(value, where):
    if value is not None and not isinstance(value, (bool, int, float)):
        raise ValidationError("%s: Input should be a valid number" % where)
    return value


def _any(value, _where):
    return value


class ToolErrorType(str, enum.Enum):
    EXECUTION_ERROR = "execution_error"
    INVALID_ARGS = "invalid_args"
    TRANSPORT_ERROR = "transport_error"
    TOOL_NOT_FOUND = "tool_not_found"
    TIMEOUT = "timeout"


def _error_type(value, where):
    try:
        return ToolErrorType(value)
    except ValueError:
        raise ValidationError("%s: Input should be one of %s" % (where, [t.value for t in ToolErrorType])) from None


class ToolError(StrictModel):
    FIELDS = {"error_type": (_error_type, _REQUIRED), "message": (_str, _REQUIRED)}


class Tool(StrictModel):
    FIELDS = {"name": (_str, _REQUIRED), "description": (_str, _REQUIRED), "input_schema": (_dict, _REQUIRED)}


_OBSERVATION_FIELDS = {"done": (_bool, False), "reward": (_reward, None), "metadata": (_dict, dict)}


class Observation(StrictModel):
    FIELDS = dict(_OBSERVATION_FIELDS)


class ListToolsObservation(StrictModel):
    FIELDS = dict(_OBSERVATION_FIELDS, tools=(_any, list))


def _tool_error(value, where):
    if value is not None and not isinstance(value, ToolError):
        raise ValidationError("%s: Input should be a valid ToolError" % where)
    return value


class CallToolObservation(StrictModel):
    FIELDS = dict(_OBSERVATION_FIELDS, tool_name=(_str, _REQUIRED), result=(_any, None), error=(_tool_error, None))


class MCPToolClient:
    """OpenEnv's MCPToolClient: step mode over ``/ws`` (the default) or production mode over ``POST /mcp``."""

    def __init__(self, base_url, use_production_mode=False):
        self.base_url = base_url.rstrip("/")
        self.use_production_mode = use_production_mode
        self.ws = None
        self._session_id = None
        self._request_id = 0

    async def connect(self):
        url = self.base_url.replace("http://", "ws://").replace("https://", "wss://") + "/ws"
        self.ws = await connect(url, open_timeout=10, max_size=100 * 1024 * 1024)

    async def close(self):
        if self._session_id is not None:
            self._mcp("openenv/session/close", {"session_id": self._session_id})
        if self.ws is not None:
            await self.ws.send(json.dumps({"type": "close"}))
            await self.ws.close()

    async def _send_and_receive(self, message):
        await self.ws.send(json.dumps(message))
        response = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
        if response.get("type") == "error":
            data = response.get("data", {})
            raise RuntimeError("Server error: %s (code: %s)" % (data.get("message", "Unknown error"), data.get("code", "UNKNOWN")))
        return response

    async def reset(self, **kwargs):
        return self._parse_result((await self._send_and_receive({"type": "reset", "data": kwargs}))["data"])

    async def step(self, action):
        return self._parse_result((await self._send_and_receive({"type": "step", "data": action}))["data"])

    def _parse_result(self, payload):
        """MCPClientBase._parse_result, as is: the observation is rebuilt into the strict models."""
        obs_data = payload.get("observation", {})
        if "tools" in obs_data:
            tools = [
                Tool(name=t.get("name", ""), description=t.get("description", ""), input_schema=t.get("input_schema", t.get("inputSchema", {})))
                for t in obs_data.get("tools", [])
            ]
            observation = ListToolsObservation(tools=tools, done=payload.get("done", False), reward=payload.get("reward"), metadata=obs_data.get("metadata", {}))
        elif "tool_name" in obs_data:
            error = None
            if obs_data.get("error"):
                error = ToolError(**obs_data["error"])
            observation = CallToolObservation(
                tool_name=obs_data.get("tool_name", ""),
                result=obs_data.get("result"),
                error=error,
                done=payload.get("done", False),
                reward=payload.get("reward"),
                metadata=obs_data.get("metadata", {}),
            )
        else:
            observation = Observation(done=payload.get("done", False), reward=payload.get("reward"), metadata=obs_data.get("metadata", {}))
        return {"observation": observation, "reward": payload.get("reward"), "done": payload.get("done", False)}

    async def list_tools(self):
        if self.use_production_mode:
            data = self._mcp("tools/list", {"session_id": self._ensure_session()})
            return [Tool(name=t.get("name", ""), description=t.get("description", ""), input_schema=t.get("input_schema", t.get("inputSchema", {}))) for t in data["result"]["tools"]]
        return (await self.step({"type": "list_tools"}))["observation"].tools

    async def call_tool(self, name, **kwargs):
        if self.use_production_mode:
            data = self._mcp("tools/call", {"name": name, "arguments": kwargs, "session_id": self._ensure_session()})
            if "error" in data:
                raise RuntimeError("Tool '%s' failed: %s" % (name, data.get("error", {}).get("message", "unknown error")))
            result = data.get("result")
            if isinstance(result, dict) and "data" in result:
                return result["data"]
            return result
        obs = (await self.step({"type": "call_tool", "tool_name": name, "arguments": kwargs}))["observation"]
        if isinstance(obs, CallToolObservation) and obs.error is not None:
            raise RuntimeError("Tool '%s' failed: %s (type: %s)" % (name, obs.error.message, obs.error.error_type.value))
        if isinstance(obs, CallToolObservation):
            result = obs.result
            if isinstance(result, dict) and "data" in result:
                return result["data"]
            return result
        return obs

    def _ensure_session(self):
        if self._session_id is None:
            data = self._mcp("openenv/session/create", {})
            if "error" in data:
                raise RuntimeError("Failed to create MCP session: %s" % data["error"].get("message"))
            self._session_id = data["result"]["session_id"]
        return self._session_id

    def _mcp(self, method, params):
        self._request_id += 1
        body = json.dumps({"jsonrpc": "2.0", "method": method, "params": params, "id": self._request_id}).encode()
        request = urllib.request.Request(self.base_url + "/mcp", data=body, headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
