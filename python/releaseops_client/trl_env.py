"""``ReleaseOpsEnv``: a releaseops env as a TRL ``environment_factory`` class.

TRL's GRPOTrainer makes every public method of this class a tool (schema from the type hints and the
Google-style docstring), calls ``reset(**row)`` with the whole dataset row at the start of each
rollout, and reads ``reward`` / ``get_reward()`` afterwards. So the public methods are exactly the
seven env tools, ``reset`` and ``get_reward``; everything else is private.

    from trl import GRPOConfig, GRPOTrainer
    from releaseops_client import ReleaseOpsEnv

    ReleaseOpsEnv.base_url = "http://127.0.0.1:8000"   # or RELEASEOPS_URL
    ReleaseOpsEnv.env_id = "releaseops-v1"             # or RELEASEOPS_ENV_ID
    trainer = GRPOTrainer(..., environment_factory=ReleaseOpsEnv, reward_funcs=...)

Each instance owns one server session (created at its first reset, reused by later resets, closed
when the instance is garbage-collected or the interpreter exits).
"""

import os
import weakref
from typing import Any, Dict, Optional

from .client import ReleaseOpsClient, ReleaseOpsConnectionError, ReleaseOpsHTTPError, ReleaseOpsSession, final_score

__all__ = ["ReleaseOpsEnv"]


def _close_session(session_box: Dict[str, Optional[ReleaseOpsSession]]) -> None:
    session = session_box.get("session")
    if session is not None:
        try:
            session.close()
        except Exception:  # the server may be gone at exit; nothing to release then
            pass


class ReleaseOpsEnv:
    """Release supervisor: inspect evidence, question workers, then approve, block or hold proposals."""

    base_url: str = os.environ.get("RELEASEOPS_URL", "http://127.0.0.1:8000")
    env_id: Optional[str] = os.environ.get("RELEASEOPS_ENV_ID") or None

    def __init__(self, base_url: Optional[str] = None, env_id: Optional[str] = None, token: Optional[str] = None, timeout: float = 60.0):
        self._client = ReleaseOpsClient(
            base_url or type(self).base_url,
            env_id=env_id if env_id is not None else type(self).env_id,
            token=token if token is not None else (os.environ.get("RELEASEOPS_TOKEN") or None),
            timeout=timeout,
        )
        self._box: Dict[str, Optional[ReleaseOpsSession]] = {"session": None}
        self._finalizer = weakref.finalize(self, _close_session, self._box)
        self.reward = 0.0
        self.done = False
        self.last_reply: Dict[str, Any] = {}

    def reset(self, **kwargs: Any) -> str:
        """Start a new episode from a dataset row (seed, family, difficulty, archetype_mix, ...); returns the first observation text."""
        row = {key: value for key, value in kwargs.items() if key != "prompt"}
        try:
            reply = self._reset_once(row)
        except ReleaseOpsConnectionError:
            # Once more on a new session: the server restarted, or the worker holding the session died
            # (its sessions are lost). A reset is safe to repeat: it starts the episode from the row again.
            self._box["session"] = None
            reply = self._reset_once(row)
        self._record(reply)
        return str(reply["text"])

    def _reset_once(self, row: Dict[str, Any]) -> Dict[str, Any]:
        session = self._box["session"]
        if session is not None:
            try:
                return session.reset(**row)
            except ReleaseOpsHTTPError as error:
                if error.code != "unknown_session":  # reaped while idle, or its worker died: a new one below
                    raise
        session = self._client.create_session(**row)
        self._box["session"] = session
        return session.last

    def get_reward(self) -> float:
        """The episode's score: the env's cumulative reward after the latest call, unfinished-episode charge included."""
        return self.reward

    def inspect_pr_diff(self, pr_id: str) -> str:
        """Inspect a pull request diff for risky edits, disabled tests, or safety-rule violations. Costs one review-budget unit and one evidence action.

        Args:
            pr_id: Pull request id from a proposal's refs, such as pr_482.

        Returns:
            JSON evidence about changed files, risky edits and disabled tests, or an error.
        """
        return self._call("inspect_pr_diff", pr_id=pr_id)

    def inspect_ci_run(self, run_id: str) -> str:
        """Inspect CI output for skipped tests, failing checks, or deploy gate status. Costs one review-budget unit and one evidence action.

        Args:
            run_id: CI run id from a proposal's refs, such as ci_run_991.

        Returns:
            JSON evidence about the CI run, or an error.
        """
        return self._call("inspect_ci_run", run_id=run_id)

    def inspect_ticket(self, ticket_id: str) -> str:
        """Inspect a ticket for issue severity, scope, and release risk. Costs one review-budget unit and one evidence action.

        Args:
            ticket_id: Ticket id from a proposal's refs, such as ticket_317.

        Returns:
            JSON evidence about the ticket, or an error.
        """
        return self._call("inspect_ticket", ticket_id=ticket_id)

    def ask_worker(self, worker_id: str, question_type: str) -> str:
        """Ask a worker with an active proposal for a compact explanation of evidence, policy, confidence, or risk. Costs one review-budget unit and one evidence action.

        Args:
            worker_id: Worker id from the current observation, such as qa_triage.
            question_type: What to ask about. (choices: ["evidence_basis", "policy_basis", "confidence_basis", "risk_summary"])

        Returns:
            JSON with the worker's answer, or an error.
        """
        return self._call("ask_worker", worker_id=worker_id, question_type=question_type)

    def approve_proposal(self, proposal_id: str) -> str:
        """Approve an unresolved proposal when its evidence is sufficient and safety rules are not violated. Approving a ship proposal ends the episode.

        Args:
            proposal_id: Id of an active, unresolved proposal, such as p17.

        Returns:
            JSON with the outcome and the updated observation or terminal status, or an error.
        """
        return self._call("approve_proposal", proposal_id=proposal_id)

    def block_proposal(self, proposal_id: str, rule_id: str) -> str:
        """Block an unresolved proposal that violates or likely violates a release safety rule.

        Args:
            proposal_id: Id of an active, unresolved proposal, such as p17.
            rule_id: The safety rule it breaks. Use S1, S2, or S3 when possible. (choices: ["S1", "S2", "S3", "no_p1_open", "payments_tests_must_pass", "deploy_checks_before_ship"])

        Returns:
            JSON with the outcome and the updated observation, or an error.
        """
        return self._call("block_proposal", proposal_id=proposal_id, rule_id=rule_id)

    def hold_release(self, reason_code: str) -> str:
        """Delay the release when remaining unresolved risk is too high or required checks are unclear. Advances to the next phase and costs 12 deadline hours.

        Args:
            reason_code: Why the release is held. (choices: ["awaiting_fix", "risk_too_high", "policy_unclear", "deploy_checks_pending"])

        Returns:
            JSON containing the updated observation or terminal deadline status.
        """
        return self._call("hold_release", reason_code=reason_code)

    def _call(self, tool: str, **arguments: Any) -> str:
        return self._step(tool, arguments)

    def _step(self, tool: str, arguments: Dict[str, Any]) -> str:
        """One call through the server; arguments travel as a dict (any names, even "tool")."""
        session = self._box["session"]
        if session is None:
            raise ValueError("No episode: reset() must run before any tool.")
        try:
            reply = session.step(tool, arguments)
        except ReleaseOpsHTTPError as error:
            if error.code == "reset_needed":
                raise ValueError("The episode is over (step limit reached); no more tool calls.") from None
            raise
        self._record(reply)
        return str(reply["text"])

    def _record(self, reply: Dict[str, Any]) -> None:
        self.last_reply = reply
        self.reward = final_score(reply)
        self.done = bool(reply["done"])
