"""Loads a `releaseops verl config --kind sft` run directory through VeRL's own SFT data path, as
`verl.trainer.sft_trainer` does: VeRL's `sft_trainer_engine.yaml` `data:` defaults with the run's `data.*`
overrides applied, VeRL's `hf_tokenizer(model.path)`, `verl.trainer.sft_trainer.create_sft_dataset` (which
loads `data.custom_cls` with VeRL's `load_extern_object`) for train and val, and VeRL's `SFTTensorCollator`.
Every row is checked against the official template's whole-conversation render (`releaseops_verl.sft_check`)
and against `data.max_token_len_per_gpu`; the rows' tools are compared with what VeRL's own
`OpenAIFunctionToolSchema` makes of the run's `tool_schemas.json` (what an RL rollout shows the model).
For contrast it also tries VeRL's stock `MultiTurnSFTDataset` on the same rows.

Usage: python verl_sft_load.py VERL_CHECKOUT RUN_DIRECTORY LABEL. Prints one VERDICT line; exit 0 on PASS.

Stubbed (cannot install on this machine; none is on the data path): `ray`, `tensordict` (the collator's
`NonTensorData`, used only for non-tensor values; every item here is tensors), `hydra` (only `hydra.main`
decorates `main`), `codetiming`, `wandb`, `flash_attn`, `vllm`, `sglang`, `megatron`, `liger_kernel`,
`peft`, `torchdata` when absent, and `omegaconf` — its grammar needs antlr4-python3-runtime 4.9, which no
local index holds — replaced by a dict-backed `DictConfig`/`ListConfig`/`OmegaConf` that offers what the
data path calls (`.get`, attribute access, `to_container`).
"""

import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import types

STUBBED = ["ray", "tensordict", "hydra", "codetiming", "wandb", "flash_attn", "vllm", "sglang", "megatron",
           "liger_kernel", "peft", "omegaconf"]


class _Anything(type):
    """A class whose every attribute is another such class: decorators, base classes and calls all work."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything(name, (), {})

    def __call__(cls, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda function=None, *a, **k: function if callable(function) else (lambda f: f)


class _StubModule(types.ModuleType):
    __path__: list = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything(name, (), {})


class DictConfig(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError as error:
            raise AttributeError(name) from error


class ListConfig(list):
    pass


def _wrap(value):
    if isinstance(value, dict):
        return DictConfig({key: _wrap(item) for key, item in value.items()})
    if isinstance(value, list):
        return ListConfig(_wrap(item) for item in value)
    return value


def _unwrap(value):
    if isinstance(value, dict):
        return {key: _unwrap(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_unwrap(item) for item in value]
    return value


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, names):
        self.names = set(names)

    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] in self.names:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = _StubModule(spec.name)
        module.__path__ = []
        module.__version__ = "0.0.0"  # version gates compare it; no stubbed feature is used
        if spec.name == "omegaconf":
            module.DictConfig, module.ListConfig = DictConfig, ListConfig
            module.OmegaConf = types.SimpleNamespace(create=_wrap, to_container=lambda value, **_: _unwrap(value))
        return module

    def exec_module(self, module):
        return None


def install_stubs():
    missing = []
    for name in STUBBED + ["torchdata"]:
        if name == "omegaconf" or importlib.util.find_spec(name) is None:
            missing.append(name)
    sys.meta_path.insert(0, _StubFinder(missing))
    return missing


def hydra_value(text):
    """A Hydra override value as the grammar types it (the subset `verl config` writes)."""
    if text in ("True", "true"):
        return True
    if text in ("False", "false"):
        return False
    if text in ("null", "None"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def data_config(verl_root, overrides):
    import yaml

    with open(os.path.join(verl_root, "verl", "trainer", "config", "sft_trainer_engine.yaml"), encoding="utf-8") as handle:
        data = yaml.safe_load(handle)["data"]
    model = {}
    for override in overrides:
        key, _, value = override.lstrip("+").partition("=")
        parts = key.split(".")
        target = {"data": data, "model": model}.get(parts[0])
        if target is None:
            continue
        for part in parts[1:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = hydra_value(value)
    return _wrap(data), model


def main(verl_root, run_directory, label):
    stubbed = install_stubs()
    sys.path[:0] = [verl_root, run_directory]
    with open(os.path.join(verl_root, "verl", "version", "version"), encoding="utf-8") as handle:
        version = handle.read().strip()
    with open(os.path.join(run_directory, "verl_config.json"), encoding="utf-8") as handle:
        config = json.load(handle)
    data, model = data_config(verl_root, config["overrides"])
    for name, value in config["environment"].items():
        os.environ[name] = value

    from verl.trainer.sft_trainer import create_sft_dataset
    from verl.utils import hf_tokenizer
    from verl.utils.dataset.dataset_utils import SFTTensorCollator
    from verl.tools.schemas import OpenAIFunctionToolSchema

    from releaseops_verl.sft_check import check_item

    tokenizer = hf_tokenizer(model["path"])
    budget = int(data.get("max_token_len_per_gpu"))
    total = passed = 0
    failures = []
    with open(os.path.join(run_directory, "tool_schemas.json"), encoding="utf-8") as handle:
        schemas = json.load(handle)
    rollout_tools = [OpenAIFunctionToolSchema.model_validate(schema).model_dump(exclude_unset=True, exclude_none=True)
                     for schema in (schemas if isinstance(schemas, list) else schemas.get("tools", schemas))]
    tool_rows_equal = 0
    dataset_class = None
    for split, files, limit in (("train", data.train_files, data.get("train_max_samples", -1)),
                                ("val", data.val_files, data.get("val_max_samples", -1))):
        if not files:
            continue
        dataset = create_sft_dataset(files, data, tokenizer, None, max_samples=limit)
        dataset_class = type(dataset).__name__
        items = []
        for index in range(len(dataset)):
            total += 1
            try:
                item = dataset[index]
                kwargs = dict(data.get("apply_chat_template_kwargs") or {})
                flag = dataset.row_flags(index)
                if flag is not None:
                    kwargs["enable_thinking"] = flag
                tools = dataset.tools[index] if dataset.tools is not None else None
                problems = check_item(tokenizer, dataset.messages[index], tools, kwargs,
                                      item["input_ids"].tolist(), item["loss_mask"].tolist())
                if item["input_ids"].shape[0] > budget:
                    problems.append(f"{item['input_ids'].shape[0]} tokens > max_token_len_per_gpu={budget}")
                if json.dumps(tools, ensure_ascii=False) == json.dumps(rollout_tools, ensure_ascii=False):
                    tool_rows_equal += 1
                else:
                    problems.append("the row's tools differ from VeRL's rollout view of tool_schemas.json")
                items.append(item)
            except Exception as error:  # a row VeRL's path cannot load is a failure, named
                problems = [f"{type(error).__name__}: {error}"]
            if problems:
                failures.append(f"{split}[{index}]: {problems[0]}")
            else:
                passed += 1
        if items:
            SFTTensorCollator(data.get("pad_mode"))(items[: min(4, len(items))])
    stock = stock_dataset_result(data, tokenizer)
    for failure in failures[:5]:
        print("  FAIL", failure)
    verdict = "PASS" if total > 0 and passed == total else "FAIL"
    print(f"VERDICT verl-{version} sft {label}: {verdict} {passed}/{total} rows "
          f"({dataset_class} via create_sft_dataset; tools equal to VeRL's rollout schema on {tool_rows_equal}/{total}; "
          f"stock MultiTurnSFTDataset: {stock}; stubbed: {','.join(stubbed)})")
    return 0 if verdict == "PASS" else 1


def stock_dataset_result(data, tokenizer):
    """How VeRL's own MultiTurnSFTDataset fares on the same train rows (for the record)."""
    from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset

    settings = DictConfig({key: value for key, value in data.items() if key != "custom_cls"})
    try:
        dataset = MultiTurnSFTDataset(data.train_files, tokenizer, settings)
    except Exception as error:
        return f"load failed ({type(error).__name__})"
    errors = {}
    for index in range(len(dataset)):
        try:
            dataset[index]
        except Exception as error:
            key = f"{type(error).__name__}: {str(error).splitlines()[0][:60]}"
            errors[key] = errors.get(key, 0) + 1
    if not errors:
        return f"{len(dataset)}/{len(dataset)} rows load"
    top = max(errors, key=errors.get)
    return f"{len(dataset) - sum(errors.values())}/{len(dataset)} rows load, {errors[top]} raise {top}"


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
