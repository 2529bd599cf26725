"""A stand-in for the trainer *process* (not for our code): it takes train_grpo.py's flags, writes a log,
a live metrics file and checkpoint folders the way train_grpo.py does, and can crash, hang or leave a
child process behind, so the server's supervision can be tested without torch. Standard library only.

Behaviour from the environment: FAKE_TRAINER_STEP_SECONDS (default 0.05), FAKE_TRAINER_EXIT (exit code
after the last step, default 0), FAKE_TRAINER_GRANDCHILD=1 (spawn a process in the same group that
ignores SIGTERM), FAKE_TRAINER_IGNORE_TERM=1 (ignore SIGTERM itself).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time


def write_json(path, value):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(value, handle)
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output-dir", required=True)
    parser.add_argument("--max-steps", type=int, default=2)
    parser.add_argument("--env-url")
    parser.add_argument("--smoke", action="store_true")
    args, _ = parser.parse_known_args()
    if os.environ.get("FAKE_TRAINER_IGNORE_TERM") == "1":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.environ.get("FAKE_TRAINER_GRANDCHILD") == "1":
        child = subprocess.Popen(
            [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"]
        )
        print("fake trainer: grandchild pid %d" % child.pid, flush=True)
    print("fake trainer: env %s token %s" % (args.env_url, "set" if os.environ.get("RELEASEOPS_TOKEN") else "unset"), flush=True)
    print("fake trainer: HOME=%s PYTHONUNBUFFERED=%s TORCH_COMPILE_DISABLE=%s" % (os.environ.get("HOME"), os.environ.get("PYTHONUNBUFFERED"), os.environ.get("TORCH_COMPILE_DISABLE")), flush=True)
    metrics = os.path.join(args.output_dir, "metrics.json")
    history = []
    step_seconds = float(os.environ.get("FAKE_TRAINER_STEP_SECONDS", "0.05"))
    for step in range(1, args.max_steps + 1):
        time.sleep(step_seconds)
        row = {
            "loss": 0.5 / step,
            "grad_norm": 1.0 / step,
            "reward": -0.5 + 0.1 * step,
            "reward_std": 0.2,
            "rewards/ReleaseOpsEnv/mean": -0.5 + 0.1 * step,
            "tools/call_frequency": 1.0 + 0.1 * step,
            "tools/failure_frequency": 0.1,
            "env/tool_calls": 4,
            "env/rejected_call_rate": 1.0 / step,
            "step": step,
            "epoch": step / 100,
        }
        history.append(row)
        write_json(metrics, {"status": "running", "global_step": step, "max_steps": args.max_steps, "best": None, "log_history": history})
        print("fake trainer: step %d/%d loss %.3f reward %.3f" % (step, args.max_steps, row["loss"], row["reward"]), flush=True)
    best = os.path.join(args.output_dir, "best_by_reward")
    os.makedirs(best, exist_ok=True)
    with open(os.path.join(best, "model.safetensors"), "wb") as handle:
        handle.write(b"\0" * 128)
    write_json(os.path.join(best, "best_info.json"), {"global_step": args.max_steps, "reward": history[-1]["reward"] if history else None})
    history.append({"train_runtime": 0.1, "train_loss": 0.3, "step": args.max_steps})
    write_json(metrics, {"status": "finished", "global_step": args.max_steps, "max_steps": args.max_steps, "best": {"global_step": args.max_steps}, "log_history": history})
    code = int(os.environ.get("FAKE_TRAINER_EXIT", "0"))
    if code:
        print("Traceback (most recent call last):\nRuntimeError: fake trainer failure", file=sys.stderr, flush=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
