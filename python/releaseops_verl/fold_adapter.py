"""Folds a LoRA adapter into its base weights, for an RLOO run whose KL reference is the SFT model.

Under LoRA, VeRL 0.9's reference policy is the actor with its adapter disabled, i.e. the weights at
``actor_rollout_ref.model.path``. Continuing the SFT adapter (``lora_adapter_path``) therefore makes the
pre-SFT base the reference. To anchor the KL term at the SFT model instead, fold the adapter into the
weights and start RL from them with a fresh LoRA (``kl_reference: sft``, no ``lora_adapter_path``):

    python -m releaseops_verl.fold_adapter --base RUN/merged --adapter RUN/merged/lora_adapter --output RUN/folded

Runs on the training machine (peft and transformers come with VeRL); the tokenizer files and chat
template are copied from the base so the run's model family is read from them unchanged.
"""

import argparse
import os
import shutil

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja", "vocab.json", "merges.txt",
                   "special_tokens_map.json", "generation_config.json")


def fold(base: str, adapter: str, output: str) -> None:
    if os.path.exists(output) and os.listdir(output):
        raise SystemExit("fold_adapter: %s exists and is not empty" % output)
    from peft import PeftModel  # imported here: the rest of the package needs neither
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(base, torch_dtype="auto")
    folded = PeftModel.from_pretrained(model, adapter).merge_and_unload()
    folded.save_pretrained(output, safe_serialization=True)
    for name in TOKENIZER_FILES:
        if os.path.isfile(os.path.join(base, name)):
            shutil.copyfile(os.path.join(base, name), os.path.join(output, name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the merger's base weights (RUN/merged)")
    parser.add_argument("--adapter", required=True, help="the trained adapter (RUN/merged/lora_adapter)")
    parser.add_argument("--output", required=True, help="where the folded weights go (must not exist or be empty)")
    arguments = parser.parse_args()
    fold(arguments.base, arguments.adapter, arguments.output)


if __name__ == "__main__":
    main()
