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


def _generate(model, tokenizer, ids: List[int], count: int, settings: Dict[str, Any]) -> List[str]:
    import torch

    with torch.no_grad():
        output = model.generate(
            torch.tensor([ids], device=model.device),
            attention_mask=torch.ones(1, len(ids), dtype=torch.long, device=model.device),
            max_new_tokens=settings["max_new_tokens"],
            do_sample=True,
            temperature=settings["temperature"],
            top_p=1.0,
            num_return_sequences=count,
            pad_token_id=tokenizer.pad_token_id,
        )
    return [tokenizer.decode(sequence[len(ids) :], skip_special_tokens=False) for sequence in output]


def play_sample(env, model, tokenizer, tools, names, row, prompt, first_text, settings) -> Dict[str, Any]:
    """One episode from a fresh reset: the first completion given, later turns generated, up to ``max_turns``
    calls. The reward is the env's cumulative reward when the model stops (no call, the episode's end, or
    the turn cap), exactly what GRPO's reward function reads: an unfinished v3 episode keeps the −0.6 a
    reset starts with."""
    reset = {key: value for key, value in row.items() if key != "prompt"}
    env.reset(**reset)
    start_reward = env.reward
    messages = [dict(message) for message in prompt]
    text = first_text
    first = None
    calls = accepted = 0
    for turn in range(settings["max_turns"]):
        call = parse_tool_call(text, names)
        if call is None:
            break
        env._step(call["name"], dict(call["arguments"]))
        ok = env.last_reply.get("error") is None
        calls += 1
        accepted += int(ok)
        if first is None:
            first = {"tool": call["name"], "accepted": ok}
        if env.done or turn + 1 >= settings["max_turns"]:
            break
        messages += [
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}]},
            {"role": "tool", "name": call["name"], "content": str(env.last_reply.get("text", ""))},
        ]
        ids = tokenizer.apply_chat_template(messages, tools=list(tools), add_generation_prompt=True, tokenize=True, return_dict=False, **THINKING)
        text = _generate(model, tokenizer, ids, 1, settings)[0]
    return {
        "tool": first["tool"] if first else None,
        "accepted": bool(first and first["accepted"]),
        "reward": round(env.reward, 6),
        "start_reward": round(start_reward, 6),
        "calls": calls,
        "accepted_calls": accepted,
        "done": env.done,
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
    env = ReleaseOpsEnv(base_url=settings["env_url"], env_id=settings["env_id"], token=os.environ.get("RELEASEOPS_TOKEN") or None)
    per_sample: List[Dict[str, Any]] = []
    for index, row in enumerate(rows):
        reset = {key: value for key, value in row.items() if key != "prompt"}
        prompt = trl_prompt(row, env.reset(**reset))
        ids = tokenizer.apply_chat_template(prompt, tools=list(tools), add_generation_prompt=True, tokenize=True, return_dict=False, **THINKING)
        for text in _generate(model, tokenizer, ids, settings["samples_per_row"], settings):
            per_sample.append(dict(play_sample(env, model, tokenizer, tools, names, row, prompt, text, settings), row=index))
    return summarize(model_dir, per_sample)


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
