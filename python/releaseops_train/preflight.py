"""Checks made before a run starts, each failing with a message that says what to do.

- The installed TRL must take ``GRPOTrainer(environment_factory=...)``. Without it the original fell back
  to a text-heuristic "compatibility reward"; here the run is refused: rewards come from the env or not
  at all.
- TRL >= 1.8: from 1.8 on GRPOTrainer treats the env's ``get_reward`` as the reward; older versions
  expose it as one more tool the model can call (and score nothing), so they are refused.
- transformers >= 5.2 (TRL's own requirement for environment_factory).
- The env server answers and serves the env.
"""

import inspect
from typing import Any, Dict, Optional, Tuple


MIN_TRL = (1, 8)


class PreflightError(RuntimeError):
    """The run cannot start; ``exit_code`` is what train_grpo.py exits with."""

    def __init__(self, message: str, exit_code: int = 3):
        super().__init__(message)
        self.exit_code = exit_code


def _version_tuple(text: str) -> Tuple[int, ...]:
    parts = []
    for piece in text.split("+")[0].split("."):
        digits = "".join(character for character in piece if character.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def check_trainer_stack(trainer_class: Any, trl_version: str, transformers_version: str) -> Dict[str, bool]:
    """Raises PreflightError unless GRPOTrainer takes environment_factory; reports optional features."""
    parameters = inspect.signature(trainer_class.__init__).parameters
    if "environment_factory" not in parameters:
        raise PreflightError(
            "the installed TRL %s has no GRPOTrainer(environment_factory=...): refusing to train. Rewards must come "
            "from the env (no text-heuristic fallback). Install trl>=1.8 (scripts/setup-rl-python.sh pins 1.13.0)." % trl_version
        )
    if _version_tuple(trl_version) < MIN_TRL:
        raise PreflightError(
            "the installed TRL %s is older than %s: before 1.8 GRPOTrainer exposes the env's get_reward as a tool "
            "instead of using it as the reward. Install trl>=1.8 (python/requirements-train.txt)." % (trl_version, ".".join(map(str, MIN_TRL)))
        )
    if _version_tuple(transformers_version) < (5, 2):
        raise PreflightError(
            "transformers %s is too old for environment_factory (needs >= 5.2.0)." % transformers_version
        )
    try:
        source = inspect.getsource(trainer_class.__init__)
    except (OSError, TypeError):
        source = ""
    return {"env_owns_reward": "get_reward" in source}


def check_env_server(client: Any, env_id: str) -> Dict[str, Any]:
    """The env's metadata from the server; PreflightError (exit code 4) when it cannot be reached."""
    from releaseops_client import ReleaseOpsConnectionError, ReleaseOpsHTTPError

    try:
        metadata = client.metadata()
    except ReleaseOpsConnectionError as error:
        raise PreflightError("the env server is not reachable: %s (start it with `releaseops serve`)" % error, 4) from None
    except ReleaseOpsHTTPError as error:
        raise PreflightError("the env server refused the metadata request for %s: %s" % (env_id, error), 4) from None
    if not metadata.get("tools"):
        raise PreflightError("the env %s publishes no tools" % env_id, 4)
    return metadata


def device_capabilities() -> Dict[str, Optional[bool]]:
    """What this host offers: CUDA, bf16 on it, bitsandbytes (paged 8-bit AdamW), vllm and peft."""
    import importlib.util

    import torch

    cuda = torch.cuda.is_available()
    return {
        "cuda": cuda,
        "bf16": bool(cuda and torch.cuda.is_bf16_supported()),
        "bitsandbytes": importlib.util.find_spec("bitsandbytes") is not None,
        "vllm": importlib.util.find_spec("vllm") is not None,
        "peft": importlib.util.find_spec("peft") is not None,
    }


# What a CUDA host with the whole trainer set (requirements-train.txt + requirements-vllm.txt) offers.
CUDA_HOST = {"cuda": True, "bf16": True, "bitsandbytes": True, "vllm": True, "peft": True}
