"""VeRL's multi-turn SFT dataset for trajectory releases (``data.custom_cls.path`` = this file, ``name`` =
``NullFreeMultiTurnSFTDataset``).

A Parquet struct holds the union of its keys, so a system message reads back with ``tool_calls: None`` and a
search call with ``choice_ids: None``; the chat template would render those as ``None`` parameters and the
tool schemas would gain nulls. This class loads the files as VeRL does, then drops ``None``-valued mapping
keys recursively (and turns array values into lists) in the loaded messages and tools, so every row renders
exactly as it was exported. Importing it without VeRL leaves only the pure helpers.
"""

from typing import Any, Iterable, Mapping

MESSAGES_KEY = "messages"
TOOLS_KEY = "tools"


def drop_none_keys(value: Any) -> Any:
    """The value with every ``None``-valued mapping key removed, recursively; arrays become lists."""
    if isinstance(value, (str, bytes)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {key: drop_none_keys(item) for key, item in value.items() if item is not None}
    if isinstance(value, (list, tuple)):
        return [drop_none_keys(item) for item in value]
    tolist = getattr(value, "tolist", None)
    if callable(tolist):  # numpy arrays and scalars, pyarrow-backed values
        return drop_none_keys(tolist())
    return value


def clean_loaded(dataset: Any, keys: Iterable[str]) -> None:
    """Cleans a loaded dataset in place: the dataframe's columns and the extracted per-row lists."""
    frame = getattr(dataset, "dataframe", None)
    if frame is not None:
        for key in keys:
            if key in frame.columns:
                frame[key] = [drop_none_keys(value) for value in frame[key]]
    for attribute in ("messages", "tools"):
        values = getattr(dataset, attribute, None)
        if isinstance(values, list):
            setattr(dataset, attribute, [drop_none_keys(value) for value in values])


def null_free_dataset_class(base: type) -> type:
    """A subclass of ``base`` (VeRL's ``MultiTurnSFTDataset``) that cleans what it loaded."""

    class NullFreeMultiTurnSFTDataset(base):  # type: ignore[misc, valid-type]
        def _read_files_and_process(self) -> None:
            super()._read_files_and_process()
            clean_loaded(self, (getattr(self, "messages_key", MESSAGES_KEY), getattr(self, "tools_key", TOOLS_KEY)))

    return NullFreeMultiTurnSFTDataset


try:
    from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset as _MultiTurnSFTDataset
except ImportError:  # not inside VeRL
    _MultiTurnSFTDataset = None

NullFreeMultiTurnSFTDataset = null_free_dataset_class(_MultiTurnSFTDataset) if _MultiTurnSFTDataset is not None else None
