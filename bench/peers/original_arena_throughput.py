"""Throughput of the ORIGINAL Python ReleaseOps Arena baselines, measured the way bench/run-bench.ts
measures ours: one baseline over the 50 eval rows, repeated, on one core. Needs a checkout of
eshwanthkartitr/RL (not part of this repository):

    RELEASEOPS_ORIGINAL_DIR=/path/to/RL python3 bench/peers/original_arena_throughput.py eval.jsonl SECONDS

Prints one JSON object: {"baseline": {"episodes": n, "seconds": s, "episodes_per_s": r}, ...}.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.environ["RELEASEOPS_ORIGINAL_DIR"])
from releaseops_arena.baselines import naive_baseline, phase_aware_rule_baseline, rule_baseline  # noqa: E402
from releaseops_arena.tool_env import ReleaseOpsToolEnv  # noqa: E402

rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
budget = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
results = {}
for name, baseline in [("naive", naive_baseline), ("rule", rule_baseline), ("phase-aware-rule", phase_aware_rule_baseline)]:
    episodes = 0
    started = time.perf_counter()
    while time.perf_counter() - started < budget:
        for row in rows:
            env = ReleaseOpsToolEnv()
            env.reset(**row)
            baseline(env)
            episodes += 1
    seconds = time.perf_counter() - started
    results[name] = {"episodes": episodes, "seconds": round(seconds, 3), "episodes_per_s": round(episodes / seconds, 1)}
print(json.dumps(results))
