"""Trainer callbacks: live metrics on every log/save/end, and the best checkpoint by mean reward.

The original kept the lowest-loss checkpoint (step 15 of 100); with ``beta = 0`` the GRPO loss says
nothing about how good the policy is, so the best checkpoint here is the one with the highest mean
reward (optionally averaged over the last ``window`` logged values, as GRPO rewards are noisy). The
lowest-loss one is kept too, in ``best_by_loss/`` beside it, because the original's scripts read it.
"""

import os
import shutil
import time
from typing import Any, Dict, List, Optional

from transformers import TrainerCallback

from .files import append_jsonl, clean_log_row, write_json_atomic


class BestRewardTracker:
    """Decides when a logged reward is a new best (pure: the callback does the saving)."""

    def __init__(self, window: int = 1, metric: str = "reward", lower_is_better: bool = False):
        self.window = max(1, int(window))
        self.metric = metric
        self.lower_is_better = lower_is_better
        self.recent: List[float] = []
        self.best: Optional[Dict[str, Any]] = None

    def observe(self, logs: Dict[str, Any], step: int, epoch: Optional[float]) -> Optional[Dict[str, Any]]:
        """Returns the new best record when ``logs`` improves on it, else None."""
        value = logs.get(self.metric)
        if not isinstance(value, (int, float)) or value != value:
            return None
        self.recent = (self.recent + [float(value)])[-self.window :]
        if len(self.recent) < self.window:
            return None
        score = sum(self.recent) / len(self.recent)
        if self.best is not None and (score >= self.best["score"] if self.lower_is_better else score <= self.best["score"]):
            return None
        self.best = {
            "global_step": step,
            "epoch": epoch,
            "metric": self.metric,
            "window": self.window,
            "score": score,
            "reward": float(value),
            "reward_std": logs.get("reward_std"),
            "loss": logs.get("loss"),
            "tool_call_frequency": logs.get("tools/call_frequency"),
        }
        return self.best


class EnvRejectionCallback(TrainerCallback):
    """Adds the env server's verdicts to every logged row: ``env/tool_calls`` since the last log and
    ``env/rejected_call_rate``, the share of them the server rejected. TRL's ``tools/failure_frequency``
    counts only calls that raised in Python; a call the env rejects is an observation, so TRL shows 0
    failures while the server rejects every call. Must run before the callbacks that write the rows."""

    def __init__(self, tally):
        self.tally = tally

    def on_log(self, args, state, control, logs=None, **kwargs):
        if logs is None or "train_runtime" in logs:
            return
        counts = self.tally.take()
        added = {
            "env/tool_calls": counts["calls"],
            "env/rejected_call_rate": counts["rejected"] / counts["calls"] if counts["calls"] else 0.0,
        }
        logs.update(added)
        # Trainer.log appends a copy of ``logs`` to the history before the callbacks see it: update that row too.
        history = getattr(state, "log_history", None)
        if history and all(history[-1].get(key) == value for key, value in logs.items() if key not in added):
            history[-1].update(added)


class LiveLogHistoryCallback(TrainerCallback):
    """Writes ``{log_history, global_step, max_steps, best, status}`` on every log, save and at the end."""

    def __init__(self, path: str, tracker: Optional[BestRewardTracker] = None):
        self.path = path
        self.tracker = tracker
        self.started = time.time()

    def _write(self, state, status: str) -> None:
        if not state.is_world_process_zero:
            return
        write_json_atomic(
            self.path,
            {
                "status": status,
                "global_step": state.global_step,
                "max_steps": state.max_steps,
                "elapsed_seconds": round(time.time() - self.started, 3),
                "best": self.tracker.best if self.tracker else None,
                "log_history": [clean_log_row(row) for row in state.log_history],
            },
        )

    def on_train_begin(self, args, state, control, **kwargs):
        self._write(state, "running")

    def on_log(self, args, state, control, logs=None, **kwargs):
        self._write(state, "running")

    def on_save(self, args, state, control, **kwargs):
        self._write(state, "running")

    def on_train_end(self, args, state, control, **kwargs):
        self._write(state, "finished")


class BestRewardCheckpointCallback(TrainerCallback):
    """Saves model + tokenizer to ``best_dir`` whenever the (windowed) mean reward reaches a new high.

    Files: the model and tokenizer, ``best_info.json`` (step, reward, loss, ...), and one line per new
    best in ``best_history.jsonl`` beside the folder. The folder is replaced atomically (written next to
    it, then renamed), so a reader never sees half a checkpoint.
    """

    def __init__(self, best_dir: str, tracker: BestRewardTracker):
        self.best_dir = best_dir
        self.tracker = tracker

    def on_log(self, args, state, control, logs=None, model=None, processing_class=None, **kwargs):
        if not logs or "train_runtime" in logs:
            return
        best = self.tracker.observe(logs, state.global_step, state.epoch)
        if best is None or not state.is_world_process_zero or model is None:
            return
        staging = self.best_dir + ".saving"
        shutil.rmtree(staging, ignore_errors=True)
        model.save_pretrained(staging)
        if processing_class is not None:
            processing_class.save_pretrained(staging)
        write_json_atomic(os.path.join(staging, "best_info.json"), best)
        previous = self.best_dir + ".previous"
        shutil.rmtree(previous, ignore_errors=True)
        if os.path.isdir(self.best_dir):
            os.replace(self.best_dir, previous)
        os.replace(staging, self.best_dir)
        shutil.rmtree(previous, ignore_errors=True)
        append_jsonl(os.path.join(os.path.dirname(os.path.abspath(self.best_dir)), "best_history.jsonl"), best)
        print(
            "train_grpo: new best %s %.4f at step %d -> %s" % (best["metric"], best["score"], best["global_step"], self.best_dir),
            flush=True,
        )
