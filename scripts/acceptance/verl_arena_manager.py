"""Arena rollouts through VeRL's real `AgentLoopManager` and `AgentLoopWorker`s on a local Ray, against a
live `releaseops serve`; only the vLLM replica is replaced.

Usage: python verl_arena_manager.py VERL_CHECKOUT ARENA_RUN MOCK_URL ENV_HTTP EXPECTED_JSONL N [WORKERS]

Runs in a Python that has VeRL's own dependencies (Ray, tensordict, Hydra, omegaconf, codetiming; the
setup is in `verl.sh`'s header); nothing is stubbed. What is VeRL's and runs as in training:
- the config: Hydra `compose` of VeRL's `ppo_trainer` with the run's overrides (`verl_config.json`), plus
  the few this CPU check needs (`agent.num_workers`, two one-"GPU" replicas);
- the batch: `RLHFDataset` on the run's `arena/val.parquet`, `collate_fn`, `DataProto.from_single_dict`,
  `RayPPOTrainer._get_gen_batch`, the validation `meta_info`, `pad_dataproto_to_divisor`;
- the rollout: `LLMServerManager` (its `GlobalRequestLoadBalancer` actor and `LLMServerClient`),
  `AgentLoopManager.create` with WORKERS `AgentLoopWorker` Ray actors, each loading the run's
  `agent_loop.yaml`, building our `ArenaAgentLoop` with Hydra, `_agent_loop_postprocess` and `_postprocess`
  (padding, masks, `rm_scores`);
- the reading: `core_algos.compute_gae_advantage_return` on `rm_scores` and `response_mask`.
Replaced: `rollout_replica_class` is `ScriptedReplica`, whose server is a Ray actor with vLLM's
`generate(request_id, prompt_ids, sampling_params, ...) -> TokenOutput` contract: it decodes the prompt ids
VeRL built and asks a scripted model (`releaseops mock-llm --format qwen3`) at MOCK_URL for the next turn,
returning its token ids plus `<|im_end|>` (vLLM's stop token) and a log-prob of 0 per token (a
deterministic policy). VeRL's `HFModelConfig` reads `config.json` from the model path (AutoConfig, no
weights): a tiny Qwen3 config is written beside the tokenizer files if none is there.

Rows: N val rows taken in turn from each `terminal_reason` eval saw (safe ships, unsafe ships, missed
deadlines; each in row order), so negative scores and every end are played. Checks, per episode: the score in `rm_scores` equals `releaseops eval` of the same
policy on the same row (EXPECTED_JSONL, float32); `env_outcome` equals eval's `terminal_reason`; tensors
have VeRL's shapes; the score sits on the response's last token and that token is the policy's (mask 1);
GAE's return (γ = λ = 1, zero values) at the first policy token equals the score. On the server (ENV_HTTP
`/counters` and `/health`, before and after): N resets (sessions opened), `client_closed` grew by N,
`connection_lost` by 0, no session is left open.
Prints one VERDICT line; exit 0 on PASS.
"""

import asyncio
import json
import os
import sys
import time
import urllib.request

ENV_PATH = "/envs/releaseops-v3/health"
OUTCOMES = {"safe_ship", "unsafe_ship", "missed_deadline", "truncated", "unfinished"}


def health(env_http):
    def read(path):
        with urllib.request.urlopen(env_http.rstrip("/") + path, timeout=10) as response:
            return json.loads(response.read())

    reply = read(ENV_PATH)
    reply["resets"] = read("/counters?recent=0")["totals"]["resets"]
    return reply


def pick_rows(expected, count):
    """Row indices taken in turn from each terminal reason's rows (in row order)."""
    by_reason = {}
    for index, row in enumerate(expected):
        by_reason.setdefault(row["terminal_reason"], []).append(index)
    queues = [by_reason[reason] for reason in sorted(by_reason)]
    picked = []
    while len(picked) < count and any(queues):
        for queue in queues:
            if queue and len(picked) < count:
                picked.append(queue.pop(0))
    return picked


def ensure_model_config(model_path):
    """VeRL's HFModelConfig needs a config.json with one architecture; nothing loads weights here."""
    if os.path.exists(os.path.join(model_path, "config.json")):
        return False
    from transformers import Qwen3Config

    Qwen3Config(vocab_size=151936, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=2, head_dim=16, architectures=["Qwen3ForCausalLM"]).save_pretrained(model_path)
    return True


def compose_config(verl_root, overrides):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=os.path.join(verl_root, "verl", "trainer", "config"), version_base=None):
        return compose(config_name="ppo_trainer", overrides=overrides)


def make_replica_class(mock_url, model_path):
    import ray
    from verl.workers.rollout.replica import RolloutMode, RolloutReplica, TokenOutput

    @ray.remote
    class ScriptedServer:
        """vLLM's server-actor `generate` contract, answered by a scripted model over /v1/completions."""

        def __init__(self, url, path):
            from transformers import AutoTokenizer

            self.url = url.rstrip("/") + "/completions"
            self.tokenizer = AutoTokenizer.from_pretrained(path)
            self.stop = self.tokenizer.convert_tokens_to_ids("<|im_end|>")
            self.calls = 0

        async def generate(self, request_id, prompt_ids, sampling_params, image_data=None, video_data=None, **_):
            self.calls += 1
            prompt = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
            body = json.dumps({"model": "scripted-evidence-heuristic", "prompt": prompt, "max_tokens": 1024, "temperature": 0})
            request = urllib.request.Request(self.url, data=body.encode(), headers={"content-type": "application/json"})

            def post():
                with urllib.request.urlopen(request, timeout=120) as response:
                    return json.loads(response.read())

            reply = await asyncio.get_running_loop().run_in_executor(None, post)
            ids = self.tokenizer.encode(reply["choices"][0]["text"], add_special_tokens=False) + [self.stop]
            return TokenOutput(token_ids=ids, log_probs=[0.0] * len(ids), stop_reason="completed")

        def count(self):
            return self.calls

    class ScriptedReplica(RolloutReplica):
        """A replica whose server is `ScriptedServer` (no GPU resource pool, no engine workers)."""

        async def init_standalone(self):
            self.rollout_mode = RolloutMode.STANDALONE
            await self.launch_servers()

        async def launch_servers(self):
            self._server_handle = ScriptedServer.options(max_concurrency=self.max_concurrency).remote(mock_url, model_path)
            self.servers = [self._server_handle]
            self._server_address = "scripted-%d" % self.replica_rank

    return ScriptedReplica


def input_batch(config, indices):
    import numpy as np
    from verl.protocol import DataProto, pad_dataproto_to_divisor
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer
    from verl.utils import hf_tokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    dataset = RLHFDataset(data_files=[config.data.val_files], tokenizer=tokenizer, config=config.data, processor=None)
    batch = DataProto.from_single_dict(collate_fn([dataset[index] for index in indices]))
    batch.non_tensor_batch["uid"] = np.array(["row-%d" % index for index in indices], dtype=object)
    gen_batch = RayPPOTrainer._get_gen_batch(None, batch)  # uses no trainer state
    gen_batch.meta_info = {"eos_token_id": tokenizer.eos_token_id, "pad_token_id": tokenizer.pad_token_id,
                           "recompute_log_prob": False, "do_sample": False, "validate": True, "global_steps": 0}
    return pad_dataproto_to_divisor(gen_batch, config.actor_rollout_ref.rollout.agent.num_workers)


def episode_problems(output, expected, indices):
    """Per-episode checks of the manager's output against `releaseops eval`; returns (problems, rows)."""
    import torch
    from verl.trainer.ppo import core_algos

    batch = output.batch
    count = len(indices)
    prompt_length = batch["prompts"].size(1)
    response_length = batch["responses"].size(1)
    rm_scores, mask = batch["rm_scores"], batch["response_mask"]
    problems, rows = [], []
    shapes = {"responses": (count, response_length), "response_mask": (count, response_length), "rm_scores": (count, response_length),
              "input_ids": (count, prompt_length + response_length), "attention_mask": (count, prompt_length + response_length)}
    if "rollout_log_probs" in batch.keys():
        shapes["rollout_log_probs"] = (count, response_length)
    for key, shape in shapes.items():
        if tuple(batch[key].shape) != shape:
            problems.append("%s has shape %s, not %s" % (key, tuple(batch[key].shape), shape))
    _, returns = core_algos.compute_gae_advantage_return(
        token_level_rewards=rm_scores, values=torch.zeros_like(rm_scores), response_mask=mask, gamma=1.0, lam=1.0)
    attention = batch["attention_mask"][:, prompt_length:]
    for index, row in enumerate(indices):
        want = torch.tensor(expected[row]["reward"], dtype=torch.float32).item()
        score = rm_scores[index].sum().item()
        last = int(attention[index].sum().item()) - 1
        placed = [int(position) for position in torch.nonzero(rm_scores[index]).flatten()]
        first_policy = int(torch.nonzero(mask[index]).flatten()[0])
        outcome = output.non_tensor_batch["env_outcome"][index]
        dropped = output.non_tensor_batch["env_tokens_dropped"][index]
        gae = returns[index, first_policy].item()
        rows.append((row, score, want, outcome, expected[row]["terminal_reason"], last, int(mask[index].sum()), dropped, gae))
        if score != want:
            problems.append("row %d: rm_scores %r, releaseops eval %r" % (row, score, want))
        if want != 0 and placed != [last]:
            problems.append("row %d: score at %s, the response's last token is %d" % (row, placed, last))
        if int(mask[index, last]) != 1:
            problems.append("row %d: the score's token %d is not the policy's (mask 0)" % (row, last))
        if (rm_scores[index] * mask[index]).sum().item() != want or abs(gae - want) > 1e-6:
            problems.append("row %d: GAE return %r, rm_scores×mask %r, score %r" % (row, gae, (rm_scores[index] * mask[index]).sum().item(), want))
        if outcome not in OUTCOMES or outcome != expected[row]["terminal_reason"]:
            problems.append("row %d: env_outcome %r, releaseops eval %r" % (row, outcome, expected[row]["terminal_reason"]))
        if bool(torch.any(mask[index].bool() & ~attention[index].bool())):
            problems.append("row %d: response_mask outside the attention mask" % row)
    return problems, rows


def start_ray(ray, runtime_env, workers, attempts=3):
    """A local Ray. Ray 2.58 gives its raylet a fixed 30 s to register with the GCS, which two busy shared
    cores sometimes miss ("The current node timed out during startup"): try again from scratch."""
    for attempt in range(1, attempts + 1):
        try:
            ray.init(num_cpus=workers + 4, include_dashboard=False, object_store_memory=256 * 1024 * 1024,
                     runtime_env=runtime_env, log_to_driver=False, _temp_dir=os.environ.get("RAY_TMPDIR"))
            return
        except Exception as error:  # Ray raises a bare Exception here
            ray.shutdown()
            import psutil

            # The failed attempt's GCS and raylet are this driver's only child processes.
            for child in psutil.Process().children(recursive=True):
                child.kill()
            if attempt == attempts or "timed out during startup" not in str(error):
                raise
            print("ray.init: %s; starting again (%d/%d)" % (error, attempt + 1, attempts), file=sys.stderr)


def run_manager(verl_root, run, config, indices, mock_url, env_http, workers):
    """VeRL's rollout of the picked rows on a local Ray; the server's counters before and after."""
    import ray
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop import AgentLoopManager
    from verl.protocol import unpad_dataproto
    from verl.trainer.constants_ppo import get_ppo_ray_runtime_env
    from verl.workers.rollout.llm_server import LLMServerManager

    with open(os.path.join(run, "verl_config.json"), encoding="utf-8") as handle:
        os.environ.update(json.load(handle)["environment"])
    # Ray's local workers inherit the driver's environment: VeRL, the run's package, the env URL.
    os.environ["PYTHONPATH"] = os.pathsep.join([verl_root, run])
    runtime_env = OmegaConf.to_container(OmegaConf.create(get_ppo_ray_runtime_env(config)))
    start_ray(ray, runtime_env, workers)
    try:
        class ScriptedServerManager(LLMServerManager):
            rollout_replica_class = make_replica_class(mock_url, config.actor_rollout_ref.model.path)

        before = health(env_http)
        started = time.time()
        servers = ScriptedServerManager.create(config=config)
        manager = AgentLoopManager.create(config=config, llm_client=servers.get_client())
        batch, pad = input_batch(config, indices)
        output = unpad_dataproto(manager.generate_sequences(batch), pad_size=pad)
        elapsed = time.time() - started
        calls = sum(ray.get([server.count.remote() for server in servers.server_handles]))
        return output, {"before": before, "after": health(env_http), "calls": calls, "elapsed": elapsed}
    finally:
        ray.shutdown()


def server_problems(run_facts, count):
    before, after = run_facts["before"], run_facts["after"]
    closed = {key: after["sessions_closed"][key] - before["sessions_closed"][key] for key in after["sessions_closed"]}
    opened = after["resets"] - before["resets"]
    run_facts.update(opened=opened, closed={key: value for key, value in closed.items() if value}, open=after["active_sessions"])
    if opened != count or closed["client_closed"] != count or closed["connection_lost"] != 0 or after["active_sessions"] != 0:
        return ["server: %d opened, closed %s, %d still open (want %d, all client_closed)" % (opened, closed, after["active_sessions"], count)]
    return []


def main(verl_root, run, mock_url, env_http, expected_path, count, workers):
    sys.path[:0] = [verl_root, run]
    with open(os.path.join(run, "verl_config.json"), encoding="utf-8") as handle:
        overrides = json.load(handle)["overrides"] + [
            "actor_rollout_ref.rollout.agent.num_workers=%d" % workers,
            "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
            "actor_rollout_ref.rollout.nnodes=1",
            "actor_rollout_ref.rollout.n_gpus_per_node=2",
        ]
    with open(expected_path, encoding="utf-8") as handle:
        expected = [json.loads(line) for line in handle if line.strip()]
    indices = pick_rows(expected, count)
    config = compose_config(verl_root, overrides)
    wrote_config = ensure_model_config(config.actor_rollout_ref.model.path)
    import transformers

    output, facts = run_manager(verl_root, run, config, indices, mock_url, env_http, workers)
    problems, rows = episode_problems(output, expected, indices)
    problems += server_problems(facts, count)
    for row, score, want, outcome, reason, last, policy, dropped, gae in rows:
        print("row %d: score %.4f eval %.4f outcome %s (eval %s) last token %d policy tokens %d env tokens dropped %s GAE return %.4f"
              % (row, score, want, outcome, reason, last, policy, dropped, gae))
    outcomes = {}
    for row in rows:
        outcomes[row[3]] = outcomes.get(row[3], 0) + 1
    failed = {problem.split(":")[0] for problem in problems if problem.startswith("row")}
    print(
        "VERDICT verl-%s arena agent-loop manager: %s %d/%d episodes equal to releaseops eval (mean %.4f; env_outcome %s, each = eval's "
        "terminal_reason); score on the last policy token, GAE return = score; shapes [%d, %d]; server: %d sessions opened, closed %s, "
        "%d open; AgentLoopManager %d workers, 2 scripted replicas, %d generate calls, %.1f s; transformers %s%s%s"
        % (
            version(verl_root), "PASS" if not problems else "FAIL", count - len(failed), count, sum(row[1] for row in rows) / max(count, 1),
            json.dumps(outcomes, sort_keys=True), count, output.batch["responses"].size(1), facts["opened"], json.dumps(facts["closed"]),
            facts["open"], workers, facts["calls"], facts["elapsed"], transformers.__version__,
            "; wrote a tiny Qwen3 config.json" if wrote_config else "", "" if not problems else " — " + "; ".join(problems[:8]),
        )
    )
    return 0 if not problems else 1


def version(verl_root):
    with open(os.path.join(verl_root, "verl", "version", "version"), encoding="utf-8") as handle:
        return handle.read().strip()


if __name__ == "__main__":
    arguments = sys.argv[1:]
    sys.exit(main(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4], int(arguments[5]),
                  int(arguments[6]) if len(arguments) > 6 else 8))
