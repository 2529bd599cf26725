"""A fixed-seed learning probe: what models do on held-out episodes, judged by the env server.

For every held-out row and sample, a fresh episode is reset on the server, the model writes its first
completion for exactly the prompt TRL builds (the row's prompt with the reset observation appended to
the last message, the env class's tools, ``enable_thinking`` off), and its first ``<tool_call>`` is sent
to the server as it is. The server decides: a call it accepts (no ``error`` in the reply) counts as
accepted; a malformed completion, an unknown tool or a call the env rejects does not.

    python -m releaseops_train.probe --rows heldout.jsonl --env-url http://127.0.0.1:8000 \
        --model before=outputs/models/warm --model after=outputs/runs/x/final --out probe.json

Every model is sampled with the same torch seed, rows and settings, so two probes differ only by the
weights. Output: ``{"models": {label: {samples, completions_with_call, accepted_calls, rejected_calls,
accepted_call_rate, mean_first_step_reward}}, "settings": {...}}``.
"""

import argparse
import json
import os
import sys
from typing import Any, Dict, List

from releaseops_client import ReleaseOpsEnv

from .files import write_json_atomic
from .warmup import THINKING, env_tools, parse_tool_call


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


def probe_model(model_dir: str, rows: List[Dict[str, Any]], settings: Dict[str, Any]) -> Dict[str, Any]:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.eval()
    tools = env_tools()
    names = [tool.__name__ for tool in tools]
    torch.manual_seed(settings["seed"])
    env = ReleaseOpsEnv(base_url=settings["env_url"], env_id=settings["env_id"], token=os.environ.get("RELEASEOPS_TOKEN") or None)
    samples = accepted = rejected = with_call = 0
    rewards: List[float] = []
    tools_used: Dict[str, int] = {}
    for row in rows:
        reset = {key: value for key, value in row.items() if key != "prompt"}
        observation = env.reset(**reset)
        ids = tokenizer.apply_chat_template(
            trl_prompt(row, observation), tools=list(tools), add_generation_prompt=True, tokenize=True, return_dict=False, **THINKING
        )
        with torch.no_grad():
            output = model.generate(
                torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                max_new_tokens=settings["max_new_tokens"],
                do_sample=True,
                temperature=settings["temperature"],
                top_p=1.0,
                num_return_sequences=settings["samples_per_row"],
                pad_token_id=tokenizer.pad_token_id,
            )
        for index, sequence in enumerate(output):
            samples += 1
            call = parse_tool_call(tokenizer.decode(sequence[len(ids) :], skip_special_tokens=False), names)
            if call is None:
                rewards.append(0.0)
                continue
            with_call += 1
            if index > 0:
                env.reset(**reset)  # every sample meets the same fresh episode
            env._step(call["name"], dict(call["arguments"]))
            rewards.append(env.reward)
            if env.last_reply.get("error") is None:
                accepted += 1
                tools_used[call["name"]] = tools_used.get(call["name"], 0) + 1
            else:
                rejected += 1
    return {
        "model": model_dir,
        "samples": samples,
        "completions_with_call": with_call,
        "accepted_calls": accepted,
        "rejected_calls": rejected,
        "accepted_call_rate": round(accepted / max(1, samples), 6),
        "mean_first_step_reward": round(sum(rewards) / max(1, len(rewards)), 6),
        "accepted_by_tool": dict(sorted(tools_used.items())),
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
    }
    rows = load_rows(args.rows, args.count)
    report = {"settings": settings, "models": {}}
    for label, folder in models:
        report["models"][label] = probe_model(folder, rows, settings)
        print("probe: %s %s" % (label, json.dumps(report["models"][label], sort_keys=True)), flush=True)
    write_json_atomic(args.out, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
