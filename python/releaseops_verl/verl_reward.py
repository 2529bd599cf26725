"""VeRL's custom reward entry point (``reward.custom_reward_function.path`` = this file, ``name`` =
``compute_score``). VeRL loads it by path, so it puts its own package on ``sys.path`` first."""

import os
import sys

_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _PACKAGE_PARENT not in sys.path:
    sys.path.insert(0, _PACKAGE_PARENT)

from releaseops_verl.reward import compute_score  # noqa: E402

__all__ = ["compute_score"]
