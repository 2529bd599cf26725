"""Standard-library client for a releaseops env server (the HTTP session API).

Only ``urllib`` and ``json``: it runs wherever Python 3.9+ runs, with nothing to install.

    client = ReleaseOpsClient("http://127.0.0.1:8000", env_id="releaseops-v1")
    session = client.create_session(seed=42, family="careful_qa_safe")
    print(session.text)
    reply = session.step("hold_release", {"reason_code": "awaiting_fix"})
    print(reply["reward"], reply["cumulative_reward"], reply["done"])
    print(session.final_score())   # the episode's score: read it, never sum the per-step rewards
    session.close()
"""

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional

__all__ = ["ReleaseOpsClient", "ReleaseOpsSession", "ReleaseOpsHTTPError", "ReleaseOpsConnectionError", "final_score"]


def final_score(reply: Dict[str, Any]) -> float:
    """The episode's score from any server reply (reset or step): its ``cumulative_reward``, the env's
    ``info.cumulative_reward``.

    Read it; do not add up the per-step ``reward`` values. On envs that charge an unfinished episode
    (``releaseops-v3``: -0.6, a missed deadline), the charge is in the live score from the reset on and
    in no step's reward until the env itself truncates, so a sum of step rewards misses it for an
    episode the model simply stops: two inspections that each verify a broken rule, then nothing, sum
    to +0.30 and score -0.30.
    """
    info = reply.get("info")
    if isinstance(info, dict) and "cumulative_reward" in info:
        return float(info["cumulative_reward"])
    return float(reply["cumulative_reward"])


class ReleaseOpsHTTPError(Exception):
    """The server answered with an error status.

    Attributes:
        status: The HTTP status (404 unknown session, 409 reset needed, 422 invalid input, 429 capacity).
        code: The server's stable error code, e.g. ``unknown_session``.
        issues: For invalid input, ``[{"code", "path", "message"}]``.
        body: The whole decoded error body.
    """

    def __init__(self, status: int, body: Dict[str, Any]):
        error = body.get("error") if isinstance(body.get("error"), dict) else {}
        self.status = status
        self.code = str(error.get("code", "http_%d" % status))
        self.issues = list(error.get("issues", []))
        self.body = body
        super().__init__("HTTP %d %s: %s" % (status, self.code, error.get("message", "")))


class ReleaseOpsConnectionError(Exception):
    """The server could not be reached (after the retries for idempotent requests)."""


class ReleaseOpsClient:
    """HTTP client for one env of a releaseops server.

    Args:
        base_url: Server address, e.g. ``http://127.0.0.1:8000``.
        env_id: Env to use (``/envs/<env_id>/...``); the server's default env when None.
        token: Bearer token, when the server was started with one.
        timeout: Seconds to wait for each reply.
        retries: Extra attempts for idempotent requests (GET, DELETE) on connection errors.
    """

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        env_id: Optional[str] = None,
        token: Optional[str] = None,
        timeout: float = 60.0,
        retries: int = 3,
    ):
        root = base_url.rstrip("/")
        self.base = root if env_id is None else "%s/envs/%s" % (root, urllib.parse.quote(env_id, safe=""))
        self.token = token
        self.timeout = timeout
        self.retries = retries

    def request(self, method: str, path: str, body: Optional[Any] = None) -> Any:
        """Sends one JSON request and returns the decoded reply; raises ReleaseOpsHTTPError on an error status."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.token:
            headers["authorization"] = "Bearer %s" % self.token
        attempts = 1 + (self.retries if method in ("GET", "DELETE") else 0)
        for attempt in range(attempts):
            request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    text = response.read().decode("utf-8")
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                text = error.read().decode("utf-8", "replace")
                try:
                    decoded = json.loads(text)
                except ValueError:
                    decoded = {"error": {"code": "http_%d" % error.code, "message": text}}
                raise ReleaseOpsHTTPError(error.code, decoded if isinstance(decoded, dict) else {}) from None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                if attempt + 1 >= attempts:
                    raise ReleaseOpsConnectionError("%s %s%s: %s" % (method, self.base, path, error)) from None
                time.sleep(min(2.0, 0.1 * 2**attempt))
        raise AssertionError("unreachable")

    def health(self) -> Dict[str, Any]:
        """``GET /health``: status and session counts."""
        return self.request("GET", "/health")

    def metadata(self) -> Dict[str, Any]:
        """``GET /metadata``: the env's name, description, tools and limits."""
        return self.request("GET", "/metadata")

    def tools(self) -> List[Dict[str, Any]]:
        """The env's tools: ``[{"name", "description", "input_schema"}]``."""
        return list(self.metadata()["tools"])

    def create_session(self, **reset_kwargs: Any) -> "ReleaseOpsSession":
        """``POST /sessions``: a new env, reset with seed, options or a dataset row's fields."""
        return ReleaseOpsSession(self, self.request("POST", "/sessions", reset_kwargs))


class ReleaseOpsSession:
    """One server-side env session. Each reply holds ``observation``, ``text`` (what a model sees),
    ``reward`` (this step's, the penalty for a bad call), ``cumulative_reward``, ``done``,
    ``terminated``, ``truncated``, ``error`` and ``info``."""

    def __init__(self, client: ReleaseOpsClient, reply: Dict[str, Any]):
        self.client = client
        self.id = str(reply["session_id"])
        self.last = reply

    def final_score(self) -> float:
        """The episode's score after the latest reply (see :func:`final_score`)."""
        return final_score(self.last)

    @property
    def text(self) -> str:
        """The latest observation as the model sees it."""
        return str(self.last["text"])

    def step(self, tool: str, arguments: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """One tool call. A bad call is not an exception: the reply carries ``error`` and the penalty."""
        self.last = self.client.request("POST", "/sessions/%s/step" % self.id, {"tool": tool, "arguments": arguments or {}})
        return self.last

    def reset(self, **reset_kwargs: Any) -> Dict[str, Any]:
        """A new episode in the same session."""
        self.last = self.client.request("POST", "/sessions/%s/reset" % self.id, reset_kwargs)
        return self.last

    def state(self) -> Dict[str, Any]:
        """The public episode state (``episode_id``, ``step_count``, then the env's state)."""
        return self.client.request("GET", "/sessions/%s/state" % self.id)

    def close(self) -> None:
        """Ends the session; closing one that is already gone is not an error."""
        try:
            self.client.request("DELETE", "/sessions/%s" % self.id)
        except ReleaseOpsHTTPError as error:
            if error.code != "unknown_session":
                raise
