"""Records golden traces from the ORIGINAL ReleaseOps Arena (eshwanthkartitr/RL @ b171e40) for the
differential test of releaseops-v1. The original's code is not in this repository; point at a
checkout of it:

    RELEASEOPS_ORIGINAL_DIR=/path/to/RL python3 test/peer/make-original-traces.py \
        > src/envs/releaseops/v1/__fixtures__/original-traces.jsonl

Each line is one episode: reset kwargs, the sha256 of the reset observation text, and per call the
call, its outcome (sha256 of the result text, or the error message), the cumulative reward and done.
Calls are drawn at random from ids the episode shows or hides, valid and invalid alike, and a few
are made after the episode ends.
"""
import hashlib
import json
import os
import random
import sys

sys.path.insert(0, os.environ["RELEASEOPS_ORIGINAL_DIR"])
from releaseops_arena.tool_env import ReleaseOpsToolEnv  # noqa: E402

FAMILIES = [
    "green_ci_disabled_payment_test",
    "qa_undercalls_p1_checkout_bug",
    "release_manager_ship_before_evidence",
    "careful_qa_safe",
]
QUESTIONS = ["evidence_basis", "policy_basis", "confidence_basis", "risk_summary", "why"]
RULES = ["S1", "S2", "S3", "no_p1_open", "payments_tests_must_pass", "deploy_checks_before_ship", "S9"]
HOLDS = ["awaiting_fix", "risk_too_high", "policy_unclear", "deploy_checks_pending", "bored"]
EXTRA_IDS = ["p1", "pr_1", "ci_run_1", "ticket_1", "nobody", ""]


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def pick_call(rng, env):
    state = env.state
    proposals = [p.id for p in state["proposals"]]
    workers = [p.worker for p in state["proposals"]] + [w.worker for w in state["worker_stats"]]
    artifacts = list(state["artifacts_db"].keys())
    ids = proposals + workers + artifacts + EXTRA_IDS
    tool = rng.choice(
        ["inspect_pr_diff", "inspect_ci_run", "inspect_ticket", "ask_worker", "approve_proposal",
         "approve_proposal", "block_proposal", "block_proposal", "hold_release"]
    )
    if tool == "inspect_pr_diff":
        return tool, {"pr_id": rng.choice(artifacts + ids)}
    if tool == "inspect_ci_run":
        return tool, {"run_id": rng.choice(artifacts + ids)}
    if tool == "inspect_ticket":
        return tool, {"ticket_id": rng.choice(artifacts + ids)}
    if tool == "ask_worker":
        return tool, {"worker_id": rng.choice(workers + ids), "question_type": rng.choice(QUESTIONS)}
    if tool == "approve_proposal":
        return tool, {"proposal_id": rng.choice(proposals + proposals + ids)}
    if tool == "block_proposal":
        return tool, {"proposal_id": rng.choice(proposals + proposals + ids), "rule_id": rng.choice(RULES)}
    return tool, {"reason_code": rng.choice(HOLDS)}


def main():
    rng = random.Random(20261129)
    episodes = []
    for family in FAMILIES:
        episodes.append((family, 42, "medium"))
    episodes += [("green_ci_disabled_payment_test", 8047, "medium"), ("green_ci_disabled_payment_test", 4412, "medium"),
                 ("qa_undercalls_p1_checkout_bug", 3350, "medium")]
    while len(episodes) < 240:
        episodes.append((rng.choice(FAMILIES), rng.randint(0, 20000), rng.choice(["low", "medium", "medium", "high"])))
    for family, seed, difficulty in episodes:
        env = ReleaseOpsToolEnv()
        kwargs = {"family": family, "seed": seed, "difficulty": difficulty}
        reset_text = env.reset(**kwargs)
        steps = []
        after_done = 0
        for _ in range(30):
            tool, arguments = pick_call(rng, env)
            try:
                outcome = {"result_sha": sha(getattr(env, tool)(**arguments))}
            except ValueError as error:
                outcome = {"error": str(error)}
            steps.append({"tool": tool, "arguments": arguments, **outcome, "reward": env.reward, "done": env.done})
            if env.done:
                after_done += 1
                if after_done > 2:
                    break
        line = {
            "reset": kwargs,
            "reset_sha": sha(reset_text),
            "steps": steps,
            "metrics": env.metrics,
            "terminal_reason": env.state.get("terminal_reason"),
        }
        sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")


main()
