"""Trajectory SFT for a stock VeRL ≥ 0.9 (``data.custom_cls.path`` = this file, ``name`` =
``TrajectorySFTDataset``).

VeRL's ``MultiTurnSFTDataset`` renders every message alone and concatenates the pieces; the Qwen3.5
templates refuse a lone non-first system message and Qwen3 drops empty think blocks from earlier turns, so
that path cannot reproduce the model's own render. This class renders each conversation once, in full, with
the model's chat template (its tools and thinking flag), and derives the loss mask from prefix renders:
an assistant turn is trained from the end of its generation prompt (the part of ``add_generation_prompt``
the full render shares) through its ``<|im_end|>`` and the newline after it. Constructor, config keys and
item keys (``input_ids``, ``attention_mask``, ``position_ids``, ``loss_mask``; ``right`` and ``no_padding``
pad modes; ``error``/``left``/``right`` truncation) are VeRL's. It needs torch, pandas and a Hugging Face
tokenizer, never VeRL itself.

Parquet pads struct keys with nulls (a system message reads back with ``tool_calls: None``); those keys are
dropped after loading so rows render exactly as exported.
"""

from typing import Any, Callable, Iterable, Mapping, Optional

END_OF_TURN = "<|im_end|>"


class TrajectoryRowError(ValueError):
    """A row the template cannot train on; ``code`` is stable."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code


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


def _common_prefix_length(left: str, right: str) -> int:
    length = 0
    for a, b in zip(left, right):
        if a != b:
            break
        length += 1
    return length


def assistant_spans(render: Callable[[list, bool], str], messages: list) -> tuple[str, list[tuple[int, int]]]:
    """The full render and each assistant turn's trained character span ``[start, end)``.

    ``render(messages, add_generation_prompt)`` is the chat template with the row's tools and flags.
    """
    full = render(messages, False)
    spans: list[tuple[int, int]] = []
    for index, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        before = render(messages[:index], False) if index > 0 else ""
        if not full.startswith(before):
            raise TrajectoryRowError(
                "template_not_prefix_preserving",
                f"rendering messages[:{index}] is not a prefix of the whole conversation's render",
            )
        prompted = render(messages[:index], True) if index > 0 else ""
        if not prompted.startswith(before):
            raise TrajectoryRowError("generation_prompt_not_appended", f"the generation prompt of turn {index} rewrites earlier text")
        # Qwen3 drops an empty think block from a turn that is not last: only the shared part is the prompt.
        start = len(before) + _common_prefix_length(prompted[len(before):], full[len(before):])
        if start == len(before) and prompted != before:
            raise TrajectoryRowError("generation_prompt_missing", f"turn {index} does not start with the generation prompt")
        end = full.find(END_OF_TURN, start)
        if end < 0:
            raise TrajectoryRowError("unterminated_assistant_turn", f"turn {index} has no {END_OF_TURN}")
        end += len(END_OF_TURN)
        if full.startswith("\n", end):
            end += 1
        if spans and start < spans[-1][1]:
            raise TrajectoryRowError("overlapping_assistant_turns", f"turn {index} overlaps the previous assistant turn")
        spans.append((start, end))
    return full, spans


def token_loss_mask(offsets: Iterable[tuple[int, int]], spans: list[tuple[int, int]]) -> list[int]:
    """1 for each token inside a span; a token straddling a span boundary is an error."""
    mask: list[int] = []
    for token_start, token_end in offsets:
        inside = 0
        for start, end in spans:
            if token_start >= start and token_end <= end:
                inside = 1
                break
            if token_start < start < token_end or token_start < end < token_end:
                raise TrajectoryRowError("token_straddles_turn", f"a token spans characters {token_start}..{token_end} across a turn boundary")
        mask.append(inside)
    return mask


def template_kwargs(base: Mapping[str, Any], enable_thinking: Optional[bool]) -> dict:
    kwargs = dict(base)
    if enable_thinking is not None:
        kwargs["enable_thinking"] = enable_thinking
    return kwargs


def tokenize_conversation(
    tokenizer: Any, messages: list, tools: Optional[list], kwargs: Mapping[str, Any]
) -> tuple[list[int], list[int], str, list[tuple[int, int]]]:
    """``(input_ids, loss_mask, full render, spans)`` of one conversation with the tokenizer's template."""

    def render(prefix: list, add_generation_prompt: bool) -> str:
        return tokenizer.apply_chat_template(
            prefix, tools=tools, add_generation_prompt=add_generation_prompt, tokenize=False, **kwargs
        )

    full, spans = assistant_spans(render, messages)
    encoded = tokenizer(full, add_special_tokens=False, return_offsets_mapping=True)
    offsets = [tuple(offset) for offset in encoded["offset_mapping"]]
    spans = snap_starts(offsets, spans)
    return list(encoded["input_ids"]), token_loss_mask(offsets, spans), full, spans


def snap_starts(offsets: list[tuple[int, int]], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Moves a span start inside a token to that token's start: the shared characters of a generation prompt
    and a turn (``<t`` of ``<think>`` and ``<tool_call>``) are not a token the prompt holds."""
    snapped = []
    for start, end in spans:
        for token_start, token_end in offsets:
            if token_start < start < token_end:
                start = token_start
                break
        snapped.append((start, end))
    return snapped


def _optional_flag(value: Any) -> Optional[bool]:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", "")):
        return None
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


try:
    import torch
    from torch.utils.data import Dataset as _Dataset
except ImportError:  # the pure helpers above still import
    torch = None
    _Dataset = object


class TrajectorySFTDataset(_Dataset):  # type: ignore[misc, valid-type]
    """``MultiTurnSFTDataset``'s constructor and items; each conversation rendered once, in full."""

    def __init__(self, parquet_files: Any, tokenizer: Any, config: Any, processor: Any = None, max_samples: int = -1):
        config = config or {}
        self.pad_mode = str(getattr(config.get("pad_mode", "right"), "value", config.get("pad_mode", "right")))
        if self.pad_mode not in ("right", "no_padding"):
            raise ValueError(f"Expect pad_mode to be 'right' or 'no_padding'. Got {self.pad_mode}")
        self.truncation = config.get("truncation", "error")
        if self.truncation not in ("error", "left", "right"):
            raise ValueError(f"Unknown truncation method {self.truncation}")
        self.max_length = int(config.get("max_length", 1024))
        self.messages_key = config.get("messages_key", "messages")
        self.tools_key = config.get("tools_key", "tools")
        self.enable_thinking_key = config.get("enable_thinking_key", "enable_thinking")
        self.enable_thinking_default = _optional_flag(config.get("enable_thinking_default", None))
        self.apply_chat_template_kwargs = dict(config.get("apply_chat_template_kwargs", None) or {})
        self.shuffle = config.get("shuffle", False)
        self.seed = config.get("seed", None)
        self.max_samples = max_samples
        if processor is not None:
            raise ValueError("TrajectorySFTDataset is text-only: run it without a multimodal processor")
        if isinstance(parquet_files, (str, bytes)) or not isinstance(parquet_files, Iterable):
            parquet_files = [parquet_files]
        self.parquet_files = [str(path) for path in parquet_files]
        if isinstance(tokenizer, str):
            from transformers import AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(tokenizer)
        self.tokenizer = tokenizer
        self.processor = None
        self._read_files_and_process()

    def _read_files_and_process(self) -> None:
        import numpy as np
        import pandas as pd

        # VeRL's own read: pyarrow-backed, so nested lists arrive as Python values, not float-cast arrays.
        frames = [pd.read_parquet(path, dtype_backend="pyarrow") for path in self.parquet_files]
        self.dataframe = pd.concat(frames)
        total = len(self.dataframe)
        if 0 < self.max_samples < total:
            if self.shuffle:
                rng = np.random.default_rng(*((self.seed,) if self.seed is not None else ()))
                indices = rng.choice(total, size=self.max_samples, replace=False)
            else:
                indices = np.arange(self.max_samples)
            self.dataframe = self.dataframe.iloc[indices.tolist()]
        self.messages = [drop_none_keys(value) for value in self.dataframe[self.messages_key].tolist()]
        columns = set(self.dataframe.columns)
        self.tools = (
            [drop_none_keys(value) for value in self.dataframe[self.tools_key].tolist()] if self.tools_key in columns else None
        )
        self.enable_thinking = (
            [_optional_flag(value) for value in self.dataframe[self.enable_thinking_key].tolist()]
            if self.enable_thinking_key in columns
            else None
        )

    def __len__(self) -> int:
        return len(self.messages)

    def row_flags(self, item: int) -> Optional[bool]:
        flag = self.enable_thinking[item] if self.enable_thinking is not None else None
        return self.enable_thinking_default if flag is None else flag

    def tokenize(self, item: int) -> tuple[list[int], list[int], str, list[tuple[int, int]]]:
        """The row's unpadded ``(input_ids, loss_mask, render, spans)``."""
        tools = self.tools[item] if self.tools is not None else None
        kwargs = template_kwargs(self.apply_chat_template_kwargs, self.row_flags(item))
        try:
            return tokenize_conversation(self.tokenizer, self.messages[item], tools or None, kwargs)
        except TrajectoryRowError as error:
            raise TrajectoryRowError(error.code, f"row {item}: {error}") from error

    def __getitem__(self, item: int) -> dict:
        ids, mask, _, _ = self.tokenize(item)
        input_ids = torch.tensor(ids, dtype=torch.long)
        loss_mask = torch.tensor(mask, dtype=torch.long)
        attention_mask = torch.ones_like(input_ids)
        position_ids = torch.arange(input_ids.shape[0], dtype=torch.long)
        length = input_ids.shape[0]
        if length > self.max_length and self.truncation == "error":
            raise ValueError(f"sequence_length={length} is larger than self.max_length={self.max_length}")
        if self.pad_mode == "no_padding":
            keep = slice(0, self.max_length)
            return {"input_ids": input_ids[keep], "position_ids": position_ids[keep], "loss_mask": loss_mask[keep]}
        if length < self.max_length:
            pad = self.max_length - length
            pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
            input_ids = torch.cat((input_ids, torch.full((pad,), pad_id, dtype=input_ids.dtype)))
            attention_mask = torch.cat((attention_mask, torch.zeros((pad,), dtype=attention_mask.dtype)))
            loss_mask = torch.cat((loss_mask, torch.zeros((pad,), dtype=loss_mask.dtype)))
            position_ids = torch.nn.functional.pad(position_ids, (0, pad), value=0)
        elif length > self.max_length:
            keep = slice(-self.max_length, None) if self.truncation == "left" else slice(0, self.max_length)
            input_ids, attention_mask, loss_mask, position_ids = (
                input_ids[keep],
                attention_mask[keep],
                loss_mask[keep],
                position_ids[keep],
            )
        return {"input_ids": input_ids, "attention_mask": attention_mask, "position_ids": position_ids, "loss_mask": loss_mask}
