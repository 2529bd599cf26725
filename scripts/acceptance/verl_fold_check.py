"""`releaseops_verl.fold_adapter` on a tiny random Qwen3 (built here, nothing downloaded) and a random LoRA
adapter saved by peft: the folded checkpoint's logits must equal base + adapter's and differ from the base
alone, and the base's tokenizer files must be copied. Usage: python verl_fold_check.py WORK_DIR (peft,
transformers and torch importable; the package on PYTHONPATH). Prints one VERDICT line; exit 0 on PASS."""

import json
import os
import shutil
import subprocess
import sys

import torch
from peft import LoraConfig, get_peft_model
from transformers import Qwen3Config, Qwen3ForCausalLM


def main(root):
    shutil.rmtree(root, ignore_errors=True)
    torch.manual_seed(0)
    config = Qwen3Config(vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, head_dim=8)
    merged, adapter, folded = (os.path.join(root, name) for name in ("merged", "merged/lora_adapter", "folded"))
    base = Qwen3ForCausalLM(config)
    base.save_pretrained(merged)
    with open(os.path.join(merged, "tokenizer_config.json"), "w", encoding="utf-8") as handle:
        json.dump({"chat_template": "{{ messages }}"}, handle)
    lora = get_peft_model(Qwen3ForCausalLM.from_pretrained(merged),
                          LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"], init_lora_weights=False))
    lora.save_pretrained(adapter)
    ids = torch.tensor([[1, 5, 9, 3, 77, 12]])
    with torch.no_grad():
        want, plain = lora(input_ids=ids).logits, base(input_ids=ids).logits
    subprocess.run([sys.executable, "-m", "releaseops_verl.fold_adapter", "--base", merged, "--adapter", adapter,
                    "--output", folded], check=True, capture_output=True)
    with torch.no_grad():
        got = Qwen3ForCausalLM.from_pretrained(folded)(input_ids=ids).logits
    folded_diff, base_diff = float((got - want).abs().max()), float((plain - want).abs().max())
    copied = os.path.isfile(os.path.join(folded, "tokenizer_config.json"))
    ok = folded_diff < 1e-5 and base_diff > 1e-3 and copied
    print("VERDICT fold_adapter: %s (folded vs base+adapter max |Δlogit| %.2e; base vs base+adapter %.2e; tokenizer files copied: %s)"
          % ("PASS" if ok else "FAIL", folded_diff, base_diff, copied))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
