"""A fixed-seed learning probe: what models do on held-out episodes, judged by the env server.

For every held-out row and sample, a fresh episode is reset on the server, the model writes its first
completion for exactly the prompt TRL builds (the row's prompt with the reset observation appended to
the last message, the env class's tools, ``enable_thinking`` off), and its ``<tool_call>`` is sent to
the server as it is (``--max-turns N``: the episode goes on with the reply in the conversation, up to N
calls). The server decides: a first call it accepts (no ``error`` in the reply) counts as accepted; a
malformed completion, an unknown tool or a call the env rejects does not. Each sample is scored as the env
scores it: its cumulative reward when the model stops, so a completion with no call keeps what the reset
gave (v3: −0.6, a missed deadline), not 0.

    python -m releaseops_train.probe --rows heldout.jsonl --env-url http://127.0.0.1:8000 \
        --model before=outputs/models/warm --model after=outputs/runs/x/final --out probe.json

Every model is sampled with the same torch seed, rows and settings, so two probes differ only by the
weights. Output: ``{"models": {label: {samples, completions_with_call, accepted_calls, rejected_calls,
accepted_call_rate, mean_reward, accepted_by_tool, per_sample: [{row, tool, accepted, reward, start_reward,
calls, accepted_calls, done}]}}, "settings": {...}}`` (``per_sample`` pairs the models row by row).
"""

import argparse
import json
import os
import sys
from typing import Any, Dict, List

from releaseops_client import ReleaseOpsEnv

from .files import write_json_atomic
from .warmup import THINKING, env_tools, load_model, parse_tool_call


def load_rows(path: str, count: int) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    if not rows:
        raise ValueError("%s holds no rows" % path)
    return rows[:count]


def trl_prompt(row: Dict[str, Any], observation: str) -> List[Dict[str, str]]:
    """The prompt GRPOTrainer builds with environment_factory: the observation appended to the last message."""
    prompt = [dict(message) for message in row["prompt"]]
    prompt[-1]["content"] = prompt[-1]["content"] + observation
    return prompt


def _generate(model, tokenizer, prompts: List[List[int]], settings: Dict[str, Any]) -> List[str]:
    """One sampled completion per prompt, left-padded into one batch (one row's samples share a prompt: no padding)."""
    import torch

    width = max(len(ids) for ids in prompts)
    pad = tokenizer.pad_token_id
    input_ids = torch.tensor([[pad] * (width - len(ids)) + ids for ids in prompts], device=model.device)
    mask = torch.tensor([[0] * (width - len(ids)) + [1] * len(ids) for ids in prompts], dtype=torch.long, device=model.device)
    with torch.no_grad():
        output = model.generate(
            input_ids,
            attention_mask=mask,
            max_new_tokens=settings["max_new_tokens"],
            do_sample=True,
            temperature=settings["temperature"],
            top_p=1.0,
            pad_token_id=pad,
        )
    return [tokenizer.decode(sequence[width:], skip_special_tokens=False) for sequence in output]


class Episode:
    """One sample: its own server session from a fresh reset, played call by call up to ``max_turns``. Its
    reward is the env's cumulative reward when the model stops (no call, the episode's end, or the turn
    cap), exactly what GRPO's reward function reads: an unfinished v3 episode keeps the −0.6 a reset gives."""

    def __init__(self, index: int, row: Dict[str, Any], settings: Dict[str, Any]):
        self.row = index
        self.env = ReleaseOpsEnv(base_url=settings["env_url"], env_id=settings["env_id"], token=os.environ.get("RELEASEOPS_TOKEN") or None)
        observation = self.env.reset(**{key: value for key, value in row.items() if key != "prompt"})
        self.start_reward = self.env.reward
        self.messages = trl_prompt(row, observation)
        self.first = None
        self.calls = self.accepted_calls = 0
        self.open = True

    def prompt_ids(self, tokenizer, tools) -> List[int]:
        return tokenizer.apply_chat_template(self.messages, tools=list(tools), add_generation_prompt=True, tokenize=True, return_dict=False, **THINKING)

    def play(self, text: str, names: List[str], last_turn: bool) -> None:
        call = parse_tool_call(text, names)
        if call is None:
            self.open = False
            return
        self.env._step(call["name"], dict(call["arguments"]))
        ok = self.env.last_reply.get("error") is None
        self.calls += 1
        self.accepted_calls += int(ok)
        if self.first is None:
            self.first = {"tool": call["name"], "accepted": ok}
        self.open = not (self.env.done or last_turn)
        self.messages += [
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}]},
            {"role": "tool", "name": call["name"], "content": str(self.env.last_reply.get("text", ""))},
        ]

    def result(self) -> Dict[str, Any]:
        return {
            "row": self.row,
            "tool": self.first["tool"] if self.first else None,
            "accepted": bool(self.first and self.first["accepted"]),
            "reward": round(self.env.reward, 6),
            "start_reward": round(self.start_reward, 6),
            "calls": self.calls,
            "accepted_calls": self.accepted_calls,
            "done": self.env.done,
        }


def probe_model(model_dir: str, rows: List[Dict[str, Any]], settings: Dict[str, Any]) -> Dict[str, Any]:
    import torch
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = load_model(model_dir, settings.get("device", "auto"))
    model.eval()
    tools = env_tools()
    names = [tool.__name__ for tool in tools]
    torch.manual_seed(settings["seed"])
    episodes = [Episode(index, row, settings) for index, row in enumerate(rows) for _ in range(settings["samples_per_row"])]
    batch = settings.get("batch_size") or settings["samples_per_row"]
    for turn in range(settings["max_turns"]):
        active = [episode for episode in episodes if episode.open]
        for start in range(0, len(active), batch):
            chunk = active[start : start + batch]
            for episode, text in zip(chunk, _generate(model, tokenizer, [episode.prompt_ids(tokenizer, tools) for episode in chunk], settings)):
                episode.play(text, names, turn + 1 >= settings["max_turns"])
    return summarize(model_dir, [episode.result() for episode in episodes])


def summarize(model_dir: str, per_sample: List[Dict[str, Any]]) -> Dict[str, Any]:
    samples = len(per_sample)
    with_call = [entry for entry in per_sample if entry["tool"] is not None]
    accepted = [entry for entry in with_call if entry["accepted"]]
    by_tool: Dict[str, int] = {}
    for entry in accepted:
        by_tool[entry["tool"]] = by_tool.get(entry["tool"], 0) + 1
    return {
        "model": model_dir,
        "samples": samples,
        "completions_with_call": len(with_call),
        "accepted_calls": len(accepted),
        "rejected_calls": len(with_call) - len(accepted),
        "accepted_call_rate": round(len(accepted) / max(1, samples), 6),
        "mean_reward": round(sum(entry["reward"] for entry in per_sample) / max(1, samples), 6),
        "accepted_by_tool": dict(sorted(by_tool.items())),
        "per_sample": per_sample,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Fixed-seed learning probe on held-out rows, judged by the env server.")
    parser.add_argument("--rows", required=True, help="held-out dataset rows (JSONL with prompt and reset fields)")
    parser.add_argument("--model", action="append", required=True, help="LABEL=MODEL_DIR (repeatable)")
    parser.add_argument("--out", required=True, help="JSON report")
    parser.add_argument("--env-url", default=os.environ.get("RELEASEOPS_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--env-id", default=os.environ.get("RELEASEOPS_ENV_ID", "releaseops-v3"))
    parser.add_argument("--count", type=int, default=16, help="held-out rows used")
    parser.add_argument("--samples-per-row", type=int, default=4)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--max-new-tokens", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--max-turns", type=int, default=1, help="tool calls played per episode (1: the first call only)")
    parser.add_argument("--device", default="auto", help="auto: cuda when available (bf16), else cpu")
    parser.add_argument("--batch-size", type=int, help="completions generated together (default: samples per row; a GPU takes 64+)")
    args = parser.parse_args(argv)
    models = []
    for item in args.model:
        label, _, folder = item.partition("=")
        if not label or not folder:
            parser.error("--model takes LABEL=MODEL_DIR, got %s" % item)
        models.append((label, folder))
    settings = {
        "env_url": args.env_url,
        "env_id": args.env_id,
        "count": args.count,
        "samples_per_row": args.samples_per_row,
        "temperature": args.temperature,
        "max_new_tokens": args.max_new_tokens,
        "seed": args.seed,
        "max_turns": args.max_turns,
        "device": args.device,
        "batch_size": args.batch_size,
    }
    rows = load_rows(args.rows, args.count)
    report = {"settings": settings, "models": {}}
    for label, folder in models:
        report["models"][label] = probe_model(folder, rows, settings)
        summary = {key: value for key, value in report["models"][label].items() if key != "per_sample"}
        print("probe: %s %s" % (label, json.dumps(summary, sort_keys=True)), flush=True)
    write_json_atomic(args.out, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
