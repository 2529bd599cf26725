"""Training helpers for ``python/train_grpo.py``: flags and GRPOConfig, live metrics and best-checkpoint
callbacks, dataset rows, the rollout-recording env, and the tiny-Qwen3 tools the CI smoke uses
(``python -m releaseops_train.tiny_qwen3``, ``python -m releaseops_train.warmup``).

Only the standard library is imported here; the modules that need torch, transformers or TRL import
them themselves.
"""

__version__ = "0.1.0"
