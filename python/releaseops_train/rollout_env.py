"""The env class GRPO trains against: ``releaseops_client.ReleaseOpsEnv`` (the tools, over HTTP), plus:

- **Bad calls are the env's to judge.** TRL calls a tool as ``method(**arguments)``; arguments that do not
  fit the signature (a wrong or missing name) would raise ``TypeError`` inside TRL, which shows the model
  an error but never reaches the env, so the call costs nothing and teaches the model that malformed
  calls are free. Here such a call is sent to the server as it is: the env answers with its
  ``invalid_arguments`` observation and its invalid-action penalty, like any other bad call.
- **A rollout log.** TRL calls ``get_reward()`` once per rollout when it scores the batch; each call
  appends ``{rollout, session_id, seed, family, reward, tool_calls, tool_errors, steps, done,
  terminal_reason}`` to a JSONL file, so a run can be checked against the server's own counters.

No public method is added (TRL would turn it into a tool); the tools keep their signatures and
docstrings, so TRL renders exactly the schemas the server publishes.
"""

import functools
import inspect
import itertools
import threading
from typing import Any, Callable, Dict, Optional

from releaseops_client import ReleaseOpsEnv as _ClientEnv

from .files import append_jsonl

_EPISODE_KEYS = ("seed", "family", "difficulty", "archetype_mix", "split")


def _lenient(name: str, method: Callable[..., str]) -> Callable[..., str]:
    """The tool with its signature and docstring, forwarding calls that do not bind to the env as they are."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def tool(self, *args: Any, **kwargs: Any) -> str:
        try:
            signature.bind(self, *args, **kwargs)
        except TypeError:
            return self._step(name, dict(kwargs))
        return method(self, *args, **kwargs)

    return tool


def tool_names(env_class: type) -> list:
    """The tools TRL exposes: public methods other than reset and get_reward."""
    return [
        name
        for name, member in inspect.getmembers(env_class, predicate=inspect.isfunction)
        if not name.startswith("_") and name not in ("reset", "get_reward")
    ]


class CallTally:
    """Tool calls and the env's rejections since the last ``take()`` (thread-safe; TRL may run envs in threads)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.calls = 0
        self.rejected = 0

    def add(self, rejected: bool) -> None:
        with self._lock:
            self.calls += 1
            self.rejected += int(rejected)

    def take(self) -> Dict[str, int]:
        with self._lock:
            counts = {"calls": self.calls, "rejected": self.rejected}
            self.calls = self.rejected = 0
            return counts


def recording_env_class(
    rollouts_path: str, base_url: str, env_id: str, token: Optional[str] = None, tally: Optional[CallTally] = None
) -> type:
    """A zero-argument env class for ``environment_factory`` bound to one server, env and rollout log.

    The class is named ``ReleaseOpsEnv``, so TRL logs its reward as ``rewards/ReleaseOpsEnv/mean``.
    ``tally`` counts every call and whether the server rejected it (its reply carried ``error``).
    """
    counter = itertools.count()
    lock = threading.Lock()

    class ReleaseOpsEnv(_ClientEnv):
        """Release supervisor: inspect evidence, question workers, then approve, block or hold proposals."""

        def __init__(self):
            super().__init__(base_url=base_url, env_id=env_id, token=token)
            self._episode: Dict[str, Any] = {}
            self._tool_calls = 0
            self._tool_errors = 0

        def reset(self, **kwargs: Any) -> str:
            """Start a new episode from a dataset row (seed, family, difficulty, archetype_mix, ...); returns the first observation text."""
            text = super().reset(**kwargs)
            self._episode = {key: kwargs[key] for key in _EPISODE_KEYS if key in kwargs}
            self._tool_calls = 0
            self._tool_errors = 0
            return text

        def get_reward(self) -> float:
            """The episode's cumulative reward (the env's own), logged once per rollout."""
            reward = super().get_reward()
            with lock:
                rollout = next(counter)
            session = self._box.get("session")
            reply = self.last_reply or {}
            append_jsonl(
                rollouts_path,
                dict(
                    self._episode,
                    rollout=rollout,
                    session_id=session.id if session is not None else None,
                    reward=reward,
                    tool_calls=self._tool_calls,
                    tool_errors=self._tool_errors,
                    steps=(reply.get("info") or {}).get("step_count"),
                    done=self.done,
                    terminal_reason=reply.get("terminal_reason"),
                ),
            )
            return reward

        def _step(self, tool: str, arguments: Dict[str, Any]) -> str:
            """One call through the server, counted; a call the env rejects is counted as a tool error."""
            if self._box["session"] is not None:
                self._tool_calls += 1
            counted = self._box["session"] is not None
            text = super()._step(tool, arguments)
            rejected = self.last_reply.get("error") is not None
            if rejected:
                self._tool_errors += 1
            if tally is not None and counted:
                tally.add(rejected)
            return text

    for name in tool_names(_ClientEnv):
        setattr(ReleaseOpsEnv, name, _lenient(name, getattr(_ClientEnv, name)))
    return ReleaseOpsEnv
