"""An independent check of one SFT item against the official chat template (used by the CI test and by
``scripts/acceptance/verl.sh``). It looks only at what a trainer receives (``input_ids``, ``loss_mask``) and
at the template's own render of the whole conversation, never at the dataset's spans:

- the ids decode to the template's full render, and equal the template's own tokenization of it;
- the trained tokens form exactly one run per assistant message, in order; each run starts right after
  ``<|im_start|>assistant\\n`` (plus the think opener the generation prompt adds) and ends with
  ``<|im_end|>`` and its newline; no run holds another turn's header or a tool response;
- each run holds its message's reasoning, content and tool-call names; untrained text holds every system,
  user and tool message.
"""

from typing import Any, Mapping, Optional

ASSISTANT_HEADER = "<|im_start|>assistant\n"
THINK_OPENERS = ("<think>\n\n</think>\n\n", "<think>\n", "")


def _runs(mask: list[int]) -> list[tuple[int, int]]:
    runs, start = [], None
    for index, bit in enumerate(mask + [0]):
        if bit and start is None:
            start = index
        elif not bit and start is not None:
            runs.append((start, index))
            start = None
    return runs


def check_item(
    tokenizer: Any,
    messages: list,
    tools: Optional[list],
    kwargs: Mapping[str, Any],
    input_ids: list[int],
    loss_mask: list[int],
) -> list[str]:
    """Problems of one unpadded item (empty when it is right)."""
    problems: list[str] = []
    official = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=False, tokenize=False, **kwargs)
    decoded = tokenizer.decode(input_ids, skip_special_tokens=False)
    if decoded != official:
        problems.append(f"ids decode to {len(decoded)} chars, the official render has {len(official)}")
    template_ids = tokenizer(official, add_special_tokens=False)["input_ids"]
    if list(template_ids) != list(input_ids):
        problems.append("ids differ from the tokenized official render")
    if len(loss_mask) != len(input_ids):
        return problems + ["loss mask and ids differ in length"]
    assistants = [message for message in messages if message.get("role") == "assistant"]
    runs = _runs(list(loss_mask))
    if len(runs) != len(assistants):
        return problems + [f"{len(runs)} trained runs for {len(assistants)} assistant turns"]
    untrained, cursor = [], 0
    for (start, end), message in zip(runs, assistants):
        before = tokenizer.decode(input_ids[:start], skip_special_tokens=False)
        trained = tokenizer.decode(input_ids[start:end], skip_special_tokens=False)
        untrained.append(tokenizer.decode(input_ids[cursor:start], skip_special_tokens=False))
        cursor = end
        if not any(before.endswith(ASSISTANT_HEADER + opener) for opener in THINK_OPENERS):
            problems.append(f"a trained run starts after {before[-40:]!r}, not after the assistant header")
        if not (trained.endswith("<|im_end|>\n") or (end == len(input_ids) and trained.endswith("<|im_end|>"))):
            problems.append(f"a trained run ends with {trained[-20:]!r}")
        if "<|im_start|>" in trained or "<tool_response>" in trained:
            problems.append("a trained run holds another turn")
        reasoning = (message.get("reasoning_content") or "").strip()
        if reasoning and kwargs.get("enable_thinking", True) and reasoning not in trained and reasoning not in before:
            problems.append("an assistant's reasoning is not in the render")
        content = (message.get("content") or "").strip()
        if content and content not in trained:
            problems.append("an assistant's content is not trained")
        position = 0
        for call in message.get("tool_calls") or []:
            name = (call.get("function") or call).get("name", "")
            found = trained.find(name, position)
            if found < 0:
                problems.append(f"tool call {name} is not trained")
            position = max(position, found)
    untrained.append(tokenizer.decode(input_ids[cursor:], skip_special_tokens=False))
    rest = "".join(untrained)
    for message in messages:
        if message.get("role") in ("system", "user", "tool"):
            text = (message.get("content") or "").strip()
            if text and text not in rest:
                problems.append(f"a {message['role']} message is missing from the untrained text")
    return problems
