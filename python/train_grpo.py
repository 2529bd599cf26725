#!/usr/bin/env python3
"""GRPO on a releaseops env served over HTTP, with TRL's ``environment_factory``.

    releaseops serve --env releaseops-v3 &                       # the env, on loopback
    releaseops dataset --env releaseops-v3 --out-dir data --splits train
    python python/train_grpo.py --dataset data/train.jsonl --model-name Qwen/Qwen3-0.6B --max-steps 100
    python python/train_grpo.py --smoke --dataset data/train.jsonl --model-name outputs/models/tiny-qwen3

- The model plays the release supervisor: the env's seven tools are the public methods of
  ``ReleaseOpsEnv`` (``python/releaseops_client``), each call a request to the server's session API.
- The reward is the env's own cumulative episode reward (``get_reward``), never a text heuristic; a TRL
  without ``environment_factory`` is refused (exit 3).
- Qwen3 prompts use ``chat_template_kwargs {"enable_thinking": false}`` unless ``--enable-thinking true``.
- Live metrics: ``<output-dir>/metrics.json`` is rewritten on every log, save and at the end.
- The best checkpoint is the one with the highest mean reward (``<output-dir>/best_by_reward``); the
  lowest-loss one (the original's choice) is kept beside it in ``<output-dir>/best_by_loss``; the final
  model goes to ``<output-dir>/final``. ``--hub-model-repo owner/name`` pushes one of them (HF_TOKEN).
- On a CUDA host the defaults are the original's GPU run: the model loaded and trained in bf16, gradient
  checkpointing and paged 8-bit AdamW (``--optim paged_adamw_8bit``, with bitsandbytes); on CPU fp32 and
  AdamW. TRL >= 1.8 is required.
- ``--use-vllm colocate`` (one GPU; ``--vllm-gpu-memory-utilization``) or ``--use-vllm server
  --vllm-server-base-url URL`` generates rollouts with vLLM; ``--lora-r R [--lora-alpha A]
  [--lora-target-modules q_proj,v_proj]`` trains a peft LoRA adapter (merged into ``final/``, the adapter
  itself in ``final/adapter``). ``--print-config`` prints the GRPOConfig this host gets and a CUDA host gets.

Exit codes: 0 done, 2 bad flags or dataset, 3 trainer stack unsupported, 4 env server unreachable,
5 the Hub push failed (the run itself is kept), 1 anything else (the traceback is in the log). The bearer token, when the server needs one, is read
from ``RELEASEOPS_TOKEN`` (never a flag: flags show in process lists and logs).
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from releaseops_client import ReleaseOpsClient  # noqa: E402
from releaseops_train.config import ConfigError, grpo_config_kwargs, lora_config_kwargs, parse_args, run_summary  # noqa: E402
from releaseops_train.dataset_rows import DatasetError, load_rows  # noqa: E402
from releaseops_train.files import write_json_atomic  # noqa: E402
from releaseops_train.preflight import CUDA_HOST, PreflightError, check_env_server, check_trainer_stack, device_capabilities  # noqa: E402


def log(message: str) -> None:
    print("train_grpo: %s" % message, flush=True)


def peft_config(args, accelerator):
    """A peft LoraConfig for --lora-r (None without it); peft missing is a ConfigError (exit 2)."""
    lora = lora_config_kwargs(args)
    if lora is None:
        return None
    if not accelerator.get("peft"):
        raise ConfigError("--lora-r needs peft (pip install -r python/requirements-train.txt)")
    from peft import LoraConfig

    return LoraConfig(**lora)


def print_config(args) -> int:
    """--print-config: the GRPOConfig (and LoraConfig) of this host and of a CUDA host, each built by TRL/peft
    where this host can (a CUDA host's config is built with use_cpu here, vLLM's fields kept)."""
    from trl import GRPOConfig

    here = device_capabilities()
    # What one checks before a GPU run, as the flags and --smoke resolve (issue 37), then each host's config.
    report = {"run": run_summary(args)}
    for label, host in (("this_host", here), ("cuda_host", CUDA_HOST)):
        try:
            kwargs = grpo_config_kwargs(args, host)
        except ConfigError as error:
            report[label] = {"error": str(error)}
            continue
        built = GRPOConfig(**dict(kwargs, use_cpu=kwargs["use_cpu"] or not here["cuda"]))
        fields = ("use_vllm", "vllm_mode", "vllm_gpu_memory_utilization", "vllm_server_base_url", "bf16", "gradient_checkpointing", "model_init_kwargs", "max_completion_length", "num_generations", "per_device_train_batch_size", "learning_rate", "beta", "loss_type", "max_steps", "temperature", "seed")
        entry = {"grpo_config": {name: getattr(built, name) for name in fields}, "optim": str(getattr(built.optim, "value", built.optim)), "device": "cpu" if kwargs["use_cpu"] else "cuda"}
        lora = lora_config_kwargs(args)
        if lora is not None and here["peft"]:
            from peft import LoraConfig

            config = LoraConfig(**lora)
            entry["lora_config"] = {"r": config.r, "lora_alpha": config.lora_alpha, "target_modules": sorted(config.target_modules) if isinstance(config.target_modules, set) else config.target_modules, "task_type": str(config.task_type)}
        elif lora is not None:
            entry["lora_config"] = dict(lora, note="peft is not installed here: not built")
        report[label] = entry
    print(json.dumps(report, indent=2, sort_keys=True, default=str), flush=True)
    return 0


def save_final(trainer, tokenizer, final_dir: str, lora: bool) -> None:
    """The final model as a plain checkpoint: a LoRA run's adapter is merged in, so eval and probes load it as is."""
    if lora:
        trainer.model.save_pretrained(os.path.join(final_dir, "adapter"))
        trainer.model.merge_and_unload().save_pretrained(final_dir)
    else:
        trainer.save_model(final_dir)
    tokenizer.save_pretrained(final_dir)


def run(args) -> int:
    import datasets
    import transformers
    import trl
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from releaseops_train.callbacks import BestRewardCheckpointCallback, BestRewardTracker, EnvRejectionCallback, LiveLogHistoryCallback
    from releaseops_train.rollout_env import CallTally, recording_env_class

    features = check_trainer_stack(GRPOTrainer, trl.__version__, transformers.__version__)
    accelerator = device_capabilities()
    kwargs = grpo_config_kwargs(args, accelerator)  # flags a host cannot run stop here, before the server
    lora = peft_config(args, accelerator)
    token = os.environ.get("RELEASEOPS_TOKEN") or None
    metadata = check_env_server(ReleaseOpsClient(args.env_url, env_id=args.env_id, token=token, timeout=30), args.env_id)
    rows = load_rows(args.dataset, args.max_rows, args.seed)
    os.makedirs(args.output_dir, exist_ok=True)
    if os.path.exists(args.rollouts_jsonl):
        os.remove(args.rollouts_jsonl)
    log(
        "trl %s, transformers %s, torch on %s; env %s at %s (%d tools); %d rows; model %s"
        % (
            trl.__version__,
            transformers.__version__,
            "cpu" if kwargs["use_cpu"] else "cuda",
            args.env_id,
            args.env_url,
            len(metadata["tools"]),
            len(rows),
            args.model_name,
        )
    )
    log("config %s" % json.dumps({key: value for key, value in kwargs.items() if key != "output_dir"}, sort_keys=True))
    if lora is not None:
        log("lora %s" % json.dumps(lora_config_kwargs(args), sort_keys=True))
    config = GRPOConfig(**kwargs)
    tokenizer = AutoTokenizer.from_pretrained(args.model_name)
    tally = CallTally()
    env_class = recording_env_class(args.rollouts_jsonl, args.env_url, args.env_id, token, tally)

    def env_reward(environments, **_):
        """The env's cumulative reward (for a TRL that adds no get_reward reward column itself)."""
        return [environment.get_reward() for environment in environments]

    tracker = BestRewardTracker(window=args.best_window)
    loss_tracker = BestRewardTracker(metric="loss", lower_is_better=True)
    trainer = GRPOTrainer(
        model=args.model_name,
        args=config,
        train_dataset=datasets.Dataset.from_list(rows),
        processing_class=tokenizer,
        environment_factory=env_class,
        peft_config=lora,
        reward_funcs=None if features["env_owns_reward"] else [env_reward],
        callbacks=[
            EnvRejectionCallback(tally),
            LiveLogHistoryCallback(args.metrics_json, tracker),
            BestRewardCheckpointCallback(args.best_dir, tracker),
            BestRewardCheckpointCallback(args.best_loss_dir, loss_tracker),
        ],
    )
    started = time.monotonic()
    trainer.train()
    final_dir = os.path.join(args.output_dir, "final")
    save_final(trainer, tokenizer, final_dir, lora is not None)
    history = trainer.state.log_history
    steps = [row for row in history if "loss" in row]
    summary = {
        "global_step": trainer.state.global_step,
        "train_seconds": round(time.monotonic() - started, 3),
        "final_dir": final_dir,
        "best_dir": args.best_dir if tracker.best else None,
        "best": tracker.best,
        "best_by_loss_dir": args.best_loss_dir if loss_tracker.best else None,
        "best_by_loss": loss_tracker.best,
        "logged_steps": len(steps),
        "reward_last": steps[-1].get("reward") if steps else None,
        "loss_last": steps[-1].get("loss") if steps else None,
    }
    write_json_atomic(os.path.join(args.output_dir, "run_summary.json"), summary)
    log("done: %s" % json.dumps(summary, sort_keys=True))
    if args.hub_model_repo:
        return push_to_hub(args, {"best_by_reward": args.best_dir, "best_by_loss": args.best_loss_dir, "final": final_dir}[args.hub_upload])
    return 0


def push_to_hub(args, folder: str) -> int:
    """Uploads ``folder`` to ``--hub-model-repo`` with HF_TOKEN (never a flag); exit 5 when it fails."""
    token = os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN")
    if not token:
        log("hub push skipped: HF_TOKEN is not set (the run is kept in %s)" % folder)
        return 5
    if not os.path.isdir(folder):
        log("hub push skipped: %s was not written" % folder)
        return 5
    try:
        from huggingface_hub import HfApi

        api = HfApi(token=token)
        api.create_repo(args.hub_model_repo, repo_type="model", private=True, exist_ok=True)
        commit = api.upload_folder(repo_id=args.hub_model_repo, folder_path=folder, commit_message="releaseops: %s" % args.hub_upload)
    except Exception as error:  # network, auth: the run itself succeeded
        log("hub push of %s to %s failed: %s" % (folder, args.hub_model_repo, error))
        return 5
    log("pushed %s to %s (%s)" % (folder, args.hub_model_repo, getattr(commit, "commit_url", commit)))
    return 0


def main(argv=None) -> int:
    args = parse_args(argv)
    for key, value in (("TRL_EXPERIMENTAL_SILENCE", "1"), ("TOKENIZERS_PARALLELISM", "false")):
        os.environ.setdefault(key, value)
    try:
        return print_config(args) if args.print_config else run(args)
    except PreflightError as error:
        log("refusing to start: %s" % error)
        return error.exit_code
    except DatasetError as error:
        log("bad dataset: %s" % error)
        return 2
    except ConfigError as error:
        log("bad flags for this host: %s" % error)
        return 2


if __name__ == "__main__":
    sys.exit(main())
