"""Plays Arena rollouts of a `releaseops verl config --env releaseops-v3` run directory through VeRL's own
agent-loop code, and checks every Hydra key of the given runs against VeRL's generated PPO config.

Usage: python verl_arena_loop.py VERL_CHECKOUT ARENA_RUN MOCK_URL EXPECTED_JSONL N [OTHER_RUN ...]

- Hydra keys: every override of each run (ARENA_RUN and OTHER_RUN...) must name a key of VeRL's
  `verl/trainer/config/_generated_ppo_trainer.yaml` (a `+key` must not exist there, its parent must).
- Rollouts: the run's config is that YAML with the run's overrides applied. VeRL's `RLHFDataset` reads the
  run's `arena/val.parquet` (`return_raw_chat`); the agent-loop registry is filled from the run's
  `agent_loop.yaml` as `AgentLoopWorker.__init__` does, and each rollout's loop is built with the arguments
  `AgentLoopWorker._run_agent_loop` passes (`DictConfigWrap`, `ToolListWrap`, VeRL's `hf_tokenizer` of the
  run's model path). The loop is our `ArenaAgentLoop` on VeRL's `ToolAgentLoop` / `AgentLoopBase`: VeRL's
  chat template handling, hermes parser, masks and turn limits; the env is a live `releaseops serve`.
- Generation backend (the only scripted part): `generate(prompt_ids)` decodes VeRL's prompt ids and asks a
  scripted model (`releaseops mock-llm --format qwen3`, a policy reading the Qwen3 prompt) at MOCK_URL for
  the next completion, and returns its token ids plus `<|im_end|>`, as vLLM returns the stop token.
- Each rollout's `reward_score` must equal the episode reward `releaseops eval` gave the same policy on the
  same row (EXPECTED_JSONL, in row order), exactly.

Stubbed, as in verl_sft_load.py (not installable here): ray, tensordict, hydra (`hydra.utils.instantiate`
is done here the way Hydra does it: `_target_` imported, YAML fields plus call arguments), omegaconf (a
dict-backed DictConfig), codetiming (a 10-line `Timer` with `.last`, what VeRL's `simple_timer` reads), wandb, flash_attn, vllm, sglang, megatron, liger_kernel, peft. Not run:
`AgentLoopManager` / `AgentLoopWorker.generate_sequences` themselves (Ray actors, and `DataProto` /
TensorDict padding, which need the stubbed packages). Prints one VERDICT line; exit 0 on PASS.
"""

import asyncio
import importlib
import json
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verl_sft_load as support  # noqa: E402


def generated_config(verl_root):
    import yaml

    path = os.path.join(verl_root, "verl", "trainer", "config", "_generated_ppo_trainer.yaml")
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def key_problems(config, overrides):
    problems = []
    for override in overrides:
        key = override.partition("=")[0]
        added = key.startswith("+")
        parts = key.lstrip("+").split(".")
        node = config
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
            if node is None:
                break
        if not isinstance(node, dict):
            problems.append("%s: no parent %s" % (key, ".".join(parts[:-1])))
        elif added and parts[-1] in node:
            problems.append("%s: exists (a + override fails)" % key)
        elif not added and parts[-1] not in node:
            problems.append("%s: not a key of the generated PPO config" % key)
    return problems


def apply_overrides(config, overrides):
    for override in overrides:
        key, _, value = override.lstrip("+").partition("=")
        parts = key.split(".")
        node = config
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = support.hydra_value(value)
    return resolve(config, config)


_SELECT = re.compile(r"^\$\{(?:oc\.select:)?([A-Za-z0-9_.]+)(?:,\s*(.*))?\}$")


def lookup(root, path):
    node = root
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def resolve(node, root):
    """The generated YAML's `${path}` and `${oc.select:path,default}` interpolations, as OmegaConf resolves them."""
    if isinstance(node, dict):
        return {key: resolve(value, root) for key, value in node.items()}
    if isinstance(node, list):
        return [resolve(value, root) for value in node]
    if isinstance(node, str):
        match = _SELECT.match(node.strip())
        if match:
            found = lookup(root, match.group(1))
            if found is None and match.group(2) is not None:
                default = match.group(2).strip()
                return resolve(default, root) if default.startswith("${") else support.hydra_value(default)
            return resolve(found, root)
    return node


def instantiate(config, **kwargs):
    """`hydra.utils.instantiate` for a `_target_` node (what AgentLoopWorker calls)."""
    module, _, name = config["_target_"].rpartition(".")
    target = getattr(importlib.import_module(module), name)
    fields = {key: value for key, value in config.items() if key not in ("_target_", "name")}
    return target(**fields, **kwargs)


class ScriptedBackend:
    """VeRL's `server_manager.generate` contract over a scripted model's `/v1/completions`."""

    def __init__(self, tokenizer, url, model):
        self.tokenizer = tokenizer
        self.url = url.rstrip("/") + "/completions"
        self.model = model
        self.stop = tokenizer.convert_tokens_to_ids("<|im_end|>")
        self.calls = 0

    async def generate(self, request_id, prompt_ids, sampling_params, **_):
        from verl.workers.rollout.replica import TokenOutput

        self.calls += 1
        prompt = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        body = json.dumps({"model": self.model, "prompt": prompt, "max_tokens": 1024, "temperature": 0}).encode()
        request = urllib.request.Request(self.url, data=body, headers={"content-type": "application/json"})
        loop = asyncio.get_running_loop()

        def post():
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read())

        reply = await loop.run_in_executor(None, post)
        text = reply["choices"][0]["text"]
        ids = self.tokenizer.encode(text, add_special_tokens=False) + [self.stop]
        return TokenOutput(token_ids=ids, stop_reason="completed")


class _Timer:
    """codetiming's `Timer` as VeRL's `simple_timer` uses it (a context manager with `.last` seconds)."""

    def __init__(self, name=None, logger=None, **_):
        self.last = 0.0

    def __enter__(self):
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.last = time.perf_counter() - self.started
        return False


def main(verl_root, run, mock_url, expected_path, count, others):
    stubbed = support.install_stubs()
    import types

    sys.modules["codetiming"] = types.SimpleNamespace(Timer=_Timer, __path__=[])
    sys.path[:0] = [verl_root, run]
    with open(os.path.join(verl_root, "verl", "version", "version"), encoding="utf-8") as handle:
        version = handle.read().strip()
    base = generated_config(verl_root)
    runs = [run] + others
    key_lines = []
    all_key_problems = []
    for directory in runs:
        with open(os.path.join(directory, "verl_config.json"), encoding="utf-8") as handle:
            overrides = json.load(handle)["overrides"]
        problems = key_problems(base, overrides)
        all_key_problems += ["%s: %s" % (os.path.basename(directory), problem) for problem in problems]
        key_lines.append("%s %d/%d keys" % (os.path.basename(directory), len(overrides) - len(problems), len(overrides)))
    with open(os.path.join(run, "verl_config.json"), encoding="utf-8") as handle:
        arena = json.load(handle)
    for name, value in arena["environment"].items():
        os.environ[name] = value
    config = support._wrap(apply_overrides(generated_config(verl_root), arena["overrides"]))

    import yaml
    from verl.experimental.agent_loop import agent_loop as machinery
    from verl.utils import hf_tokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset

    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    dataset = RLHFDataset(data_files=[config.data.val_files], tokenizer=tokenizer, config=config.data, processor=None)
    with open(config.actor_rollout_ref.rollout.agent.agent_loop_config_path, encoding="utf-8") as handle:
        for entry in support._wrap(yaml.safe_load(handle)):
            machinery._agent_loop_registry[entry.name] = entry
    backend = ScriptedBackend(tokenizer, mock_url, "scripted-evidence-heuristic")
    with open(expected_path, encoding="utf-8") as handle:
        expected = [json.loads(line) for line in handle if line.strip()]
    sampling = {"temperature": 0.0, "top_p": 1.0, "top_k": -1, "repetition_penalty": 1.0, "logprobs": False}

    async def rollout(index):
        item = dataset[index]
        kwargs = {key: value for key, value in item.items() if key in ("raw_prompt", "extra_info", "data_source", "index", "agent_name", "reward_model")}
        agent = instantiate(
            machinery._agent_loop_registry[item.get("agent_name", config.actor_rollout_ref.rollout.agent.default_agent_loop)],
            trainer_config=machinery.DictConfigWrap(config=config),
            server_manager=backend,
            tokenizer=tokenizer,
            processor=None,
            dataset_cls=RLHFDataset,
            data_config=machinery.DictConfigWrap(config.data),
            tools=machinery.ToolListWrap([]),
        )
        return await agent.run(dict(sampling), **kwargs)

    started = time.time()
    mismatches, rows = [], []
    for index in range(count):
        output = asyncio.run(rollout(index))
        want = expected[index]["reward"]
        masked = sum(output.response_mask)
        rows.append((index, output.reward_score, want, output.extra_fields.get("env_steps"), masked, len(output.response_ids)))
        if output.reward_score != want:
            mismatches.append("row %d: agent loop %r, releaseops eval %r" % (index, output.reward_score, want))
        if len(output.response_ids) != len(output.response_mask):
            mismatches.append("row %d: response ids and mask differ in length" % index)
    elapsed = time.time() - started
    for index, got, want, steps, masked, total in rows:
        print("row %d: score %.4f eval %.4f steps %s policy tokens %d / %d" % (index, got, want, steps, masked, total))
    total_score = sum(row[1] for row in rows)
    ok = not mismatches and not all_key_problems
    print(
        "VERDICT verl-%s arena agent loop: %s %d/%d episodes equal to releaseops eval (mean %.4f; %d generate calls; %.1f s); Hydra %s%s; stubbed: %s"
        % (
            version,
            "PASS" if ok else "FAIL",
            count - len(set(m.split(":")[0] for m in mismatches)),
            count,
            total_score / max(count, 1),
            backend.calls,
            elapsed,
            ", ".join(key_lines),
            "" if not (mismatches or all_key_problems) else " — " + "; ".join((mismatches + all_key_problems)[:8]),
            ", ".join(stubbed),
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6:]))
