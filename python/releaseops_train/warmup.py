"""Supervised warm-up: teach a (tiny, random) model to emit Qwen3 tool calls for our tools.

A random model never writes ``<tool_call>``, so GRPO would "run" without ever touching the env. This
trains on scripted trajectories recorded through our agent loop (``releaseops train trajectories``):
each conversation is rendered with the model's chat template, with exactly the tool schemas TRL will
put in the GRPO prompt (the public methods of ``ReleaseOpsEnv``), and only the assistant turns are
scored. The optimiser is torch's AdamW; logits are computed only at scored positions (the vocabulary
has 151k entries, a full logits tensor for 3k-token sequences would not fit in memory).

    python -m releaseops_train.warmup --model outputs/models/tiny --trajectories warmup.jsonl --out outputs/models/tiny-warm

Afterwards it samples completions for held-out prompts and reports the share that are well-formed
tool calls of known tools; below ``--min-tool-call-rate`` it exits with code 3. It also prints, teacher-forced,
what the model puts where a held-out call's tool name starts (``name_slot_report``).
"""

import argparse
import inspect
import json
import random
import re
import sys
import time
from typing import Any, Dict, List, Sequence, Tuple

from releaseops_client import ReleaseOpsEnv

THINKING = {"enable_thinking": False}
TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.DOTALL)


def env_tools() -> List[Any]:
    """The tools TRL renders into GRPO prompts: the env class's public methods (no server needed)."""
    env = ReleaseOpsEnv()
    return [
        method
        for name, method in inspect.getmembers(env, predicate=inspect.ismethod)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    ]


def load_model(model_dir: str, device: str = "auto"):
    """The model on CUDA (bf16 where the GPU has it) when there is one, else on the CPU in fp32."""
    import torch
    from transformers import AutoModelForCausalLM

    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = torch.bfloat16 if device.startswith("cuda") and torch.cuda.is_bf16_supported() else torch.float32
    return AutoModelForCausalLM.from_pretrained(model_dir, dtype=dtype).to(device)


def load_trajectories(path: str) -> List[Dict[str, Any]]:
    lines = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            value = json.loads(line)
            if not isinstance(value.get("messages"), list) or len(value["messages"]) < 3:
                raise ValueError("%s:%d: a trajectory needs messages (prompt, assistant turns)" % (path, number))
            lines.append(value)
    if not lines:
        raise ValueError("%s holds no trajectories" % path)
    return lines


def _plain(message: Dict[str, Any]) -> Dict[str, Any]:
    """The fields a chat template reads (our messages carry ids the template ignores anyway)."""
    out = {"role": message["role"], "content": message.get("content") or ""}
    if message.get("tool_calls"):
        out["tool_calls"] = [{"type": "function", "function": call["function"]} for call in message["tool_calls"]]
    if message["role"] == "tool" and message.get("name"):
        out["name"] = message["name"]
    return out


def build_example(tokenizer, template: str, tools: Sequence[Any], messages: Sequence[Dict[str, Any]], max_turns: int, max_length: int):
    """Token ids and labels of one conversation: assistant completions scored, everything else -100.

    Each assistant turn's completion is the difference between the conversation rendered up to it with a
    generation prompt and rendered through it (the training template is prefix-preserving), so it is
    exactly what the model must write after ``<|im_start|>assistant\\n<think>\\n\\n</think>\\n\\n``.
    """
    plain = [_plain(message) for message in messages]
    render = lambda upto, prompt: tokenizer.apply_chat_template(  # noqa: E731
        plain[:upto], tools=list(tools), chat_template=template, add_generation_prompt=prompt, tokenize=True, return_dict=False, **THINKING
    )
    ids: List[int] = []
    labels: List[int] = []
    turns = 0
    for index, message in enumerate(plain):
        if message["role"] != "assistant":
            continue
        prompt = render(index, True)
        full = render(index + 1, False)
        if full[: len(prompt)] != prompt or prompt[: len(ids)] != ids:
            raise ValueError("the chat template is not prefix-preserving; use TRL's training template")
        end = full.index(tokenizer.eos_token_id, len(prompt)) + 1  # through <|im_end|>, not the newline after it
        if end > max_length:
            break
        labels += [-100] * (len(prompt) - len(ids)) + full[len(prompt) : end]
        ids = full[:end]
        turns += 1
        if turns >= max_turns:
            break
    return (ids, labels) if turns else None


def training_template(tokenizer) -> str:
    """TRL's prefix-preserving training variant of the tokenizer's template (the one its tool loop uses)."""
    from trl.chat_template_utils import get_training_chat_template

    return get_training_chat_template(tokenizer) or tokenizer.chat_template


def crop_context(example: Tuple[List[int], List[int]], context: int) -> Tuple[List[int], List[int]]:
    """Keeps ``context`` tokens before the first scored token (and everything after it); 0 keeps all.

    Attention cost grows with the square of the length, and the format a warm-up teaches lives in the
    last few hundred tokens, so a cropped context trains several times faster. Emission is then checked
    on full-length prompts.
    """
    ids, labels = example
    if context <= 0:
        return example
    first = next(index for index, label in enumerate(labels) if label != -100)
    start = max(0, first - context)
    return ids[start:], labels[start:]


def slot_weights(tokenizer, examples: List[Tuple[List[int], List[int]]], name_weight: float) -> List[List[float]]:
    """Per token of each example: ``name_weight`` where a scored call's tool name starts, 1 elsewhere."""
    weights = []
    for _, labels in examples:
        row = [1.0] * len(labels)
        for slot in name_slots(tokenizer, labels):
            row[slot] = name_weight
        weights.append(row)
    return weights


def train(
    model,
    tokenizer,
    examples: List[Tuple[List[int], List[int]]],
    steps: int,
    batch_size: int,
    learning_rate: float,
    seed: int,
    name_weight: float = 1.0,
):
    """AdamW over the examples. Sequences are right-padded and no attention mask is passed: with causal
    attention a real token never sees the padding after it, so the loss is exact and attention takes its
    fast causal path. ``name_weight`` > 1 weighs the tool name's first token above the call's format
    tokens in the mean (a weighted mean; 1 is the plain mean)."""
    import torch

    weights = slot_weights(tokenizer, examples, name_weight) if name_weight != 1.0 else None
    generator = random.Random(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
    model.train()
    history = []
    started = last_line = time.monotonic()
    for step in range(steps):
        picks = [generator.randrange(len(examples)) for _ in range(batch_size)]
        batch = [examples[index] for index in picks]
        width = max(len(ids) for ids, _ in batch)
        input_ids = torch.tensor([ids + [tokenizer.pad_token_id] * (width - len(ids)) for ids, _ in batch], device=model.device)
        targets = torch.tensor([labels + [-100] * (width - len(labels)) for _, labels in batch], device=model.device)
        hidden = model.model(input_ids=input_ids).last_hidden_state[:, :-1]
        shifted = targets[:, 1:]
        scored = shifted != -100
        if weights is None:
            loss = torch.nn.functional.cross_entropy(model.lm_head(hidden[scored]), shifted[scored])
        else:
            weight = torch.tensor([weights[index] + [0.0] * (width - len(weights[index])) for index in picks], device=model.device)[:, 1:][scored]
            each = torch.nn.functional.cross_entropy(model.lm_head(hidden[scored]), shifted[scored], reduction="none")
            loss = (each * weight).sum() / weight.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
        # A line at least every 5 s (issue 37: a slow CPU showed step 1/200, then nothing for minutes).
        now = time.monotonic()
        if step == 0 or (step + 1) % 20 == 0 or step + 1 == steps or now - last_line >= 5:
            last_line = now
            eta = (now - started) / (step + 1) * (steps - step - 1)
            print("warmup: step %d/%d loss %.4f, %.0fs elapsed, ETA %.0fs" % (step + 1, steps, history[-1], now - started, eta), flush=True)
    model.eval()
    return history


def parse_tool_call(text: str, tool_names: Sequence[str]):
    """The first ``<tool_call>`` of a completion when it is JSON naming a known tool with object arguments."""
    match = TOOL_CALL.search(text)
    if not match:
        return None
    try:
        call = json.loads(match.group(1))
    except ValueError:
        return None
    if not isinstance(call, dict) or call.get("name") not in tool_names or not isinstance(call.get("arguments"), dict):
        return None
    return call


def name_slots(tokenizer, labels: Sequence[int]) -> List[int]:
    """Indices of the scored tokens that start a tool's name: the token after ``{"name": "``.

    In Qwen3's tokenization the same `` "`` token opens the name and, one field later, ``arguments``
    (``{" name ": " hold _release ", " arguments ":``), so only what precedes it tells the two apart.
    """
    opening = tokenizer.encode('{"name": "', add_special_tokens=False)
    return [
        index + len(opening)
        for index in range(len(labels) - len(opening))
        if labels[index] != -100 and list(labels[index : index + len(opening)]) == opening
    ]


def name_slot_report(model, tokenizer, examples, tool_names: Sequence[str]) -> Dict[str, Any]:
    """Teacher-forced, at each example's first tool-name slot: the mean probability of the right name's
    first token and of ``arguments``, and the share whose most likely token starts a known tool. A model
    that writes ``<tool_call>`` but puts ``arguments`` where the name goes shows it here (decision 0054).
    Logits only at the slot: a full-vocabulary tensor for every position would not fit in memory."""
    import torch

    starts = {tokenizer.encode(name, add_special_tokens=False)[0] for name in tool_names}
    arguments = tokenizer.encode("arguments", add_special_tokens=False)[0]
    right = other = named = count = 0.0
    with torch.no_grad():
        for ids, labels in examples:
            slots = name_slots(tokenizer, labels)
            if not slots:
                continue
            slot = slots[0]
            hidden = model.model(input_ids=torch.tensor([ids[:slot]], device=model.device)).last_hidden_state[0, -1]
            probabilities = model.lm_head(hidden).float().softmax(-1)
            right += float(probabilities[labels[slot]])
            other += float(probabilities[arguments])
            named += int(int(probabilities.argmax()) in starts)
            count += 1
    share = lambda total: round(total / count, 3) if count else None  # noqa: E731
    return {"slots": int(count), "p_name": share(right), "p_arguments": share(other), "argmax_is_a_tool": share(named)}


def tool_call_rate(model, tokenizer, tools, trajectories, samples: int, seed: int, temperature: float = 1.0, max_new_tokens: int = 64):
    """Sampled first completions for held-out prompts (at the temperature GRPO will sample with): share of valid calls."""
    import torch

    names = [tool.__name__ for tool in tools]
    torch.manual_seed(seed)
    calls = []
    for trajectory in trajectories[:samples]:
        first = next(index for index, message in enumerate(trajectory["messages"]) if message["role"] == "assistant")
        prompt = tokenizer.apply_chat_template(
            [_plain(message) for message in trajectory["messages"][:first]],
            tools=list(tools),
            add_generation_prompt=True,
            tokenize=True,
            return_dict=False,
            **THINKING,
        )
        with torch.no_grad():
            output = model.generate(
                torch.tensor([prompt], device=model.device),
                attention_mask=torch.ones(1, len(prompt), dtype=torch.long, device=model.device),
                max_new_tokens=max_new_tokens,
                do_sample=True,
                temperature=temperature,
                top_p=1.0,
            )
        calls.append(parse_tool_call(tokenizer.decode(output[0][len(prompt) :], skip_special_tokens=False), names))
    valid = [call for call in calls if call is not None]
    return len(valid) / max(1, len(calls)), valid


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Supervised warm-up on scripted trajectories until the model emits tool calls.")
    parser.add_argument("--model", required=True, help="model folder (e.g. from releaseops_train.tiny_qwen3)")
    parser.add_argument("--trajectories", required=True, help="JSONL from `releaseops train trajectories`")
    parser.add_argument("--out", required=True, help="folder for the warmed-up model and tokenizer")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--max-turns", type=int, default=3, help="assistant turns scored per conversation")
    parser.add_argument("--max-length", type=int, default=4096, help="tokens per conversation at most")
    parser.add_argument("--context", type=int, default=0, help="prompt tokens kept before the first scored token (0: all)")
    parser.add_argument("--name-weight", type=float, default=1.0, help="loss weight of the tool name's first token (1: plain mean; decision 0054)")
    parser.add_argument("--held-out", type=int, default=8, help="trajectories kept out of training to test emission")
    parser.add_argument("--min-tool-call-rate", type=float, default=0.5)
    parser.add_argument("--temperature", type=float, default=1.0, help="sampling temperature of the emission check (use GRPO's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="auto", help="auto: cuda when available (bf16), else cpu")
    args = parser.parse_args(argv)

    import torch
    from transformers import AutoTokenizer

    started = time.monotonic()
    torch.manual_seed(args.seed)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = load_model(args.model, args.device)
    trajectories = load_trajectories(args.trajectories)
    if len(trajectories) <= args.held_out:
        print("warmup: need more than %d trajectories (have %d)" % (args.held_out, len(trajectories)), file=sys.stderr)
        return 2
    tools = env_tools()
    template = training_template(tokenizer)
    held_out, training = trajectories[: args.held_out], trajectories[args.held_out :]
    examples = [build_example(tokenizer, template, tools, line["messages"], args.max_turns, args.max_length) for line in training]
    examples = [crop_context(example, args.context) for example in examples if example is not None]
    scored = sum(sum(1 for label in labels if label != -100) for _, labels in examples)
    print("warmup: %d conversations, %d scored tokens, %d tools" % (len(examples), scored, len(tools)), flush=True)
    history = train(model, tokenizer, examples, args.steps, args.batch_size, args.learning_rate, args.seed, args.name_weight)
    rate, calls = tool_call_rate(model, tokenizer, tools, held_out, len(held_out), args.seed, args.temperature)
    held_examples = [build_example(tokenizer, template, tools, line["messages"], 1, args.max_length) for line in held_out]
    slot = name_slot_report(model, tokenizer, [example for example in held_examples if example], [tool.__name__ for tool in tools])
    print("warmup: held-out tool-name slot %s" % json.dumps(slot, sort_keys=True), flush=True)
    model.save_pretrained(args.out)
    tokenizer.save_pretrained(args.out)
    used = sorted({call["name"] for call in calls})
    print(
        "warmup: loss %.3f -> %.3f in %.1f s; held-out tool-call rate %.2f at temperature %.1f (tools %s); saved %s"
        % (history[0], history[-1], time.monotonic() - started, rate, args.temperature, ", ".join(used) or "none", args.out),
        flush=True,
    )
    if rate < args.min_tool_call_rate:
        print("warmup: the model does not emit tool calls reliably (%.2f < %.2f)" % (rate, args.min_tool_call_rate), file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
