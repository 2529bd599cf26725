"""A stand-in for an old TRL (0.19) whose GRPOTrainer has no ``environment_factory``: train_grpo.py must
refuse it before loading any model or touching the env server."""

__version__ = "0.19.0"


class GRPOConfig:
    def __init__(self, **kwargs):
        self.kwargs = kwargs


class GRPOTrainer:
    def __init__(self, model, reward_funcs, args=None, train_dataset=None, processing_class=None, callbacks=None):
        raise AssertionError("train_grpo.py built a trainer on a TRL without environment_factory")
