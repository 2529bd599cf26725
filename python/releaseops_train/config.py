"""``train_grpo.py``'s flags and the GRPOConfig they make. Every hyperparameter is a flag; ``--smoke``
caps the run at a few steps. Pure: nothing here imports TRL, so the mapping is testable anywhere."""

import argparse
import os
from typing import Any, Dict, List, Optional

# The loss formulations TRL's GRPOTrainer takes (trl/trainer/grpo_config.py).
LOSS_TYPES = ("grpo", "dr_grpo", "dapo", "bnpo", "cispo", "sapo", "luspo", "vespo")
# Optimisers transformers' Trainer names (a subset: the ones a GRPO run of this project would choose).
OPTIMIZERS = ("adamw_torch", "adamw_torch_fused", "paged_adamw_8bit", "adamw_8bit", "paged_adamw_32bit", "adafactor", "sgd")
# Optimisers that need bitsandbytes and a CUDA device.
BITSANDBYTES_OPTIMIZERS = ("paged_adamw_8bit", "adamw_8bit", "paged_adamw_32bit")
# TRL's vLLM modes (GRPOConfig.vllm_mode): vLLM inside the training process, or a `trl vllm-serve` server.
VLLM_MODES = ("colocate", "server")
# LoRA on every linear layer unless told otherwise (peft's own shorthand).
LORA_ALL_LINEAR = "all-linear"


class ConfigError(ValueError):
    """Flags that cannot make a run on this machine (exit code 2)."""


# Defaults of a normal run, and of a --smoke run; flags given explicitly win over both.
DEFAULTS = {
    "max_steps": 50,
    "per_device_train_batch_size": 4,
    "gradient_accumulation_steps": 4,
    "num_generations": 4,
    # Above the measured need of releaseops-v3 and -v2 with Qwen3's template (`releaseops train budget`:
    # the ladder's calls and replies at p99 plus room for the model's text; v2 4,024, v3 3,540 tokens).
    "max_completion_length": 4096,
    "max_tool_calling_iterations": None,
    "logging_steps": 5,
}
SMOKE_DEFAULTS = {
    "max_steps": 2,
    "per_device_train_batch_size": 2,
    "gradient_accumulation_steps": 1,
    "num_generations": 2,
    # One tool round: the first call and its reply (v3's p99 116 tokens) plus room for the model's text.
    "max_completion_length": 192,
    "max_tool_calling_iterations": 1,
    "logging_steps": 1,
}


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("expected a positive integer, got %s" % text)
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("expected a positive number, got %s" % text)
    return value


def _fraction(text: str) -> float:
    value = float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError("expected a number in (0, 1], got %s" % text)
    return value


def _boolean(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError("expected true or false, got %s" % text)


class _DefaultsFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """argparse's defaults in --help, less "(default: None)": those flags say in words what decides them."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default is None:
            return action.help or ""
        return super()._get_help_string(action)


def _run_default(key: str) -> str:
    """A run default and its --smoke value, named in --help (argparse only sees None: --smoke decides)."""
    def shown(value: Any) -> str:
        return "unlimited" if value is None else str(value)

    return "default %s (--smoke: %s)" % (shown(DEFAULTS[key]), shown(SMOKE_DEFAULTS[key]))


def run_summary(args: argparse.Namespace) -> Dict[str, Any]:
    """What one checks before a GPU run (--print-config's ``run``): model, steps, sampling, tool rounds,
    generation and LoRA settings, after --smoke and the defaults are applied."""
    lora = lora_config_kwargs(args)
    return {
        "model_name": args.model_name,
        "env_id": args.env_id,
        "env_url": args.env_url,
        "dataset": args.dataset,
        "smoke": args.smoke,
        "max_steps": args.max_steps,
        "learning_rate": args.learning_rate,
        "temperature": args.temperature,
        "tool_rounds": args.max_tool_calling_iterations,
        "num_generations": args.num_generations,
        "per_device_train_batch_size": args.per_device_train_batch_size,
        "gradient_accumulation_steps": args.gradient_accumulation_steps,
        "max_completion_length": args.max_completion_length,
        "enable_thinking": args.enable_thinking,
        "beta": args.beta,
        "loss_type": args.loss_type,
        "seed": args.seed,
        "use_vllm": args.use_vllm,
        "lora": lora,
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="train_grpo.py",
        description="GRPO on a releaseops env served over HTTP (TRL environment_factory; the env's own reward).",
        # Every default in --help (issue 37); the run/--smoke ones below name both in their help text.
        formatter_class=_DefaultsFormatter,
    )
    run = parser.add_argument_group("run")
    run.add_argument("--smoke", action="store_true", help="a few steps: small defaults for steps, generations, lengths (CI, sanity)")
    run.add_argument("--model-name", default="Qwen/Qwen3-0.6B", help="HF model id or a local model folder")
    run.add_argument("--dataset", required=True, help="JSONL rows from `releaseops dataset` (e.g. train.jsonl)")
    run.add_argument("--max-rows", type=_positive_int, help="use the first n rows (after shuffling)")
    run.add_argument("--output-dir", default="outputs/releaseops-grpo", help="checkpoints, metrics, logs")
    run.add_argument("--metrics-json", help="live log history (default <output-dir>/metrics.json)")
    run.add_argument("--best-dir", help="best checkpoint by mean reward (default <output-dir>/best_by_reward)")
    run.add_argument("--rollouts-jsonl", help="one line per rollout (default <output-dir>/rollouts.jsonl)")
    run.add_argument("--best-loss-dir", help="checkpoint with the lowest logged loss, as the original kept (default <output-dir>/best_by_loss)")
    run.add_argument("--hub-model-repo", help="push a checkpoint to this Hub model repo (owner/name) when the run succeeds; token from HF_TOKEN")
    run.add_argument("--hub-upload", choices=("best_by_reward", "best_by_loss", "final"), default="best_by_reward", help="which checkpoint --hub-model-repo gets")
    run.add_argument("--best-window", type=_positive_int, default=1, help="logged rewards averaged to pick the best checkpoint")
    env = parser.add_argument_group("env server")
    env.add_argument("--env-url", default=os.environ.get("RELEASEOPS_URL", "http://127.0.0.1:8000"), help="releaseops serve address")
    env.add_argument("--env-id", default=os.environ.get("RELEASEOPS_ENV_ID", "releaseops-v3"), help="env to train on (env RELEASEOPS_ENV_ID)")
    hyper = parser.add_argument_group("hyperparameters")
    hyper.add_argument("--max-steps", type=_positive_int, help=_run_default("max_steps"))
    hyper.add_argument("--learning-rate", type=_positive_float, default=1e-5, help="optimiser learning rate")
    hyper.add_argument("--per-device-train-batch-size", type=_positive_int, help=_run_default("per_device_train_batch_size"))
    hyper.add_argument("--gradient-accumulation-steps", type=_positive_int, help=_run_default("gradient_accumulation_steps"))
    hyper.add_argument("--num-generations", type=_positive_int, help=_run_default("num_generations"))
    hyper.add_argument("--max-completion-length", type=_positive_int, help="tokens per whole multi-turn rollout; " + _run_default("max_completion_length"))
    hyper.add_argument("--max-tool-calling-iterations", type=_positive_int, help="tool rounds per rollout; " + _run_default("max_tool_calling_iterations"))
    hyper.add_argument("--temperature", type=_positive_float, default=1.0, help="sampling temperature of the rollouts")
    hyper.add_argument("--beta", type=float, default=0.0, help="KL coefficient (0: no reference model)")
    hyper.add_argument("--loss-type", default="dapo", choices=LOSS_TYPES)
    hyper.add_argument("--optim", choices=OPTIMIZERS, help="default: paged_adamw_8bit on a GPU with bitsandbytes, else adamw_torch")
    hyper.add_argument("--logging-steps", type=_positive_int, help=_run_default("logging_steps"))
    hyper.add_argument("--save-steps", type=_positive_int, default=500, help="checkpoint every n steps")
    hyper.add_argument("--seed", type=int, default=42, help="training and sampling seed")
    hyper.add_argument("--bf16", type=_boolean, default=None, help="default: on with a GPU that supports it, off on CPU")
    hyper.add_argument("--gradient-checkpointing", type=_boolean, default=None, help="default: on with a GPU, off on CPU")
    hyper.add_argument("--use-cpu", action="store_true", help="train on the CPU even when a GPU is present")
    hyper.add_argument("--enable-thinking", type=_boolean, default=False, help="Qwen3 chat_template_kwargs.enable_thinking")
    gpu = parser.add_argument_group("generation and adapters (GPU)")
    gpu.add_argument("--use-vllm", choices=VLLM_MODES, help="generate rollouts with vLLM: colocate (in this process, one GPU) or server (`trl vllm-serve`)")
    gpu.add_argument("--vllm-gpu-memory-utilization", type=_fraction, default=0.3, help="share of GPU memory vLLM takes in colocate mode (TRL's default 0.3)")
    gpu.add_argument("--vllm-server-base-url", help="the `trl vllm-serve` address in server mode (required: TRL's default port is the env server's 8000)")
    gpu.add_argument("--lora-r", type=_positive_int, help="train a LoRA adapter of this rank (peft) instead of all weights")
    gpu.add_argument("--lora-alpha", type=_positive_int, help="LoRA scaling alpha (default 2 x rank)")
    gpu.add_argument("--lora-target-modules", default=LORA_ALL_LINEAR, help="comma-separated module names, or all-linear")
    gpu.add_argument("--lora-dropout", type=float, default=0.0, help="LoRA dropout")
    gpu.add_argument("--print-config", action="store_true", help="print the GRPOConfig (and LoraConfig) this host gets and what a CUDA host gets, then exit")
    return parser


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    defaults = SMOKE_DEFAULTS if args.smoke else DEFAULTS
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.num_generations < 2:
        build_parser().error("--num-generations must be at least 2 (GRPO compares completions within a group)")
    if args.lora_r is None and (args.lora_alpha is not None or args.lora_target_modules != LORA_ALL_LINEAR):
        build_parser().error("--lora-alpha and --lora-target-modules need --lora-r")
    args.metrics_json = args.metrics_json or os.path.join(args.output_dir, "metrics.json")
    args.best_dir = args.best_dir or os.path.join(args.output_dir, "best_by_reward")
    args.best_loss_dir = args.best_loss_dir or os.path.join(args.output_dir, "best_by_loss")
    args.rollouts_jsonl = args.rollouts_jsonl or os.path.join(args.output_dir, "rollouts.jsonl")
    return args


def grpo_config_kwargs(args: argparse.Namespace, accelerator: Dict[str, bool]) -> Dict[str, Any]:
    """GRPOConfig keyword arguments. ``accelerator``: ``{"cuda", "bf16", "bitsandbytes", "vllm"}`` (bools) as detected.

    On a CUDA host the defaults are the original's 1.7B run: bf16 (where the GPU has it), gradient
    checkpointing, and paged 8-bit AdamW (where bitsandbytes is installed). On CPU: fp32, no
    checkpointing, AdamW; a bitsandbytes optimiser asked for there is a ConfigError, not a crash later.

    The generation batch (per-device batch x accumulation) must be a multiple of ``num_generations``,
    as TRL requires; the per-device batch is raised to the group size when it is smaller.
    """
    on_gpu = accelerator.get("cuda", False) and not args.use_cpu
    batch = max(args.per_device_train_batch_size, args.num_generations)
    generation_batch = batch * args.gradient_accumulation_steps
    if generation_batch % args.num_generations:
        batch = args.num_generations * -(-batch // args.num_generations)
    bf16 = args.bf16 if args.bf16 is not None else (on_gpu and accelerator.get("bf16", False))
    checkpointing = args.gradient_checkpointing if args.gradient_checkpointing is not None else on_gpu
    bitsandbytes = on_gpu and accelerator.get("bitsandbytes", False)
    optim = args.optim or ("paged_adamw_8bit" if bitsandbytes else "adamw_torch")
    if optim in BITSANDBYTES_OPTIMIZERS and not bitsandbytes:
        raise ConfigError(
            "--optim %s needs a CUDA GPU and bitsandbytes (pip install -r python/requirements-train.txt on the GPU host); "
            "this run is on %s%s." % (optim, "cuda" if on_gpu else "cpu", " without bitsandbytes" if on_gpu else "")
        )
    vllm = _vllm_kwargs(args, on_gpu, accelerator)
    return {
        **vllm,
        # TRL loads a model named by a string in float32 unless told (grpo_trainer.py); bf16 training loads bf16.
        "model_init_kwargs": {"dtype": "bfloat16" if bf16 and on_gpu else "float32"},
        "output_dir": args.output_dir,
        "max_steps": args.max_steps,
        "learning_rate": args.learning_rate,
        "per_device_train_batch_size": batch,
        "gradient_accumulation_steps": args.gradient_accumulation_steps,
        "num_generations": args.num_generations,
        "max_completion_length": args.max_completion_length,
        "max_tool_calling_iterations": args.max_tool_calling_iterations,
        "temperature": args.temperature,
        "beta": args.beta,
        "loss_type": args.loss_type,
        "logging_steps": args.logging_steps,
        "save_strategy": "steps",
        "save_steps": args.save_steps,
        "save_total_limit": 2,
        "seed": args.seed,
        "bf16": bool(bf16),
        "gradient_checkpointing": bool(checkpointing),
        "optim": optim,
        "use_cpu": not on_gpu,
        "report_to": [],
        "chat_template_kwargs": {"enable_thinking": bool(args.enable_thinking)},
        "log_completions": False,
        "disable_tqdm": True,
        "remove_unused_columns": False,
    }


def _vllm_kwargs(args: argparse.Namespace, on_gpu: bool, accelerator: Dict[str, bool]) -> Dict[str, Any]:
    """GRPOConfig's vLLM fields; vLLM without CUDA or without the package is a ConfigError (exit 2)."""
    if args.use_vllm is None:
        return {"use_vllm": False}
    if not on_gpu or not accelerator.get("vllm", False):
        raise ConfigError(
            "--use-vllm %s needs a CUDA GPU and vllm (pip install -r python/requirements-train.txt -r python/requirements-vllm.txt "
            "on the GPU host); this run is on %s%s." % (args.use_vllm, "cuda" if on_gpu else "cpu", " without vllm" if on_gpu else "")
        )
    if args.use_vllm == "server":
        if not args.vllm_server_base_url:
            raise ConfigError("--use-vllm server needs --vllm-server-base-url (start `trl vllm-serve --model M --port 8001`; 8000 is the env server's)")
        return {"use_vllm": True, "vllm_mode": "server", "vllm_server_base_url": args.vllm_server_base_url}
    return {"use_vllm": True, "vllm_mode": "colocate", "vllm_gpu_memory_utilization": args.vllm_gpu_memory_utilization}


def lora_config_kwargs(args: argparse.Namespace) -> Optional[Dict[str, Any]]:
    """peft.LoraConfig keyword arguments for ``--lora-r``, or None (full fine-tuning)."""
    if args.lora_r is None:
        return None
    modules = [name.strip() for name in args.lora_target_modules.split(",") if name.strip()]
    if not modules:
        raise ConfigError("--lora-target-modules names no module")
    return {
        "r": args.lora_r,
        "lora_alpha": args.lora_alpha or 2 * args.lora_r,
        "lora_dropout": args.lora_dropout,
        "target_modules": LORA_ALL_LINEAR if modules == [LORA_ALL_LINEAR] else modules,
        "task_type": "CAUSAL_LM",
    }
