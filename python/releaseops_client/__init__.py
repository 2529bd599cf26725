"""Standard-library clients for a releaseops env server, and a TRL ``environment_factory`` env class."""

from .client import ReleaseOpsClient, ReleaseOpsConnectionError, ReleaseOpsHTTPError, ReleaseOpsSession, final_score
from .trl_env import ReleaseOpsEnv

__all__ = [
    "ReleaseOpsClient",
    "ReleaseOpsConnectionError",
    "ReleaseOpsEnv",
    "ReleaseOpsHTTPError",
    "ReleaseOpsSession",
    "final_score",
]
__version__ = "0.1.0"
