"""The Python tools and reward against calls recorded from the TypeScript env (byte for byte).

Run by ``test/verl-python-parity.test.ts``, which records the calls with a real ``GradingEnv`` and sets
``RELEASEOPS_VERL_PARITY`` (the recording) and ``RELEASEOPS_VERL_TASK`` (the run's task bundle).
"""

import json
import os
import unittest

from releaseops_verl.arguments import MISSING
from releaseops_verl.reward import compute_score, final_answer_text, judge_answer
from releaseops_verl.task import load_task_bundle
from releaseops_verl.tools import GradingTools


@unittest.skipUnless(os.environ.get("RELEASEOPS_VERL_PARITY"), "needs a recording from the TypeScript side")
class ParityTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.environ["RELEASEOPS_VERL_PARITY"], "r", encoding="utf-8") as handle:
            cls.calls = json.load(handle)
        cls.bundle = load_task_bundle()
        cls.tools = GradingTools(cls.bundle.any_task())

    def test_tool_texts_are_byte_identical(self):
        tool_calls = [call for call in self.calls if call["kind"] == "tool"]
        mismatches = []
        for index, call in enumerate(tool_calls):
            text = self.tools.call(call["name"], call.get("arguments", MISSING))
            if text != call["text"]:
                mismatches.append((index, call["name"], call.get("arguments", "<absent>"), text, call["text"]))
        self.assertEqual(mismatches[:3], [])
        print("tool calls compared: %d" % len(tool_calls))

    def test_final_replies_are_judged_identically(self):
        finals = [call for call in self.calls if call["kind"] == "final"]
        mismatches = []
        for call in finals:
            task = self.bundle.task(call["dataset"])
            verdict = judge_answer(call["content"], task, call["ground_truth"], call["level"])
            expected = dict(call["final"])
            if expected.get("code") == "answer_not_json":
                # The reason quotes the JSON parser's own message, which differs between the two parsers.
                expected.pop("reason")
                verdict.pop("reason", None)
            if verdict != expected:
                mismatches.append((call["content"], verdict, call["final"]))
        self.assertEqual(mismatches[:3], [])
        print("final replies compared: %d" % len(finals))

    def test_final_turn_completions_score_identically(self):
        completions = [call for call in self.calls if call["kind"] == "completion"]
        mismatches = []
        for call in completions:
            task = self.bundle.task(call["dataset"])
            text = final_answer_text(call["completion"], open_think=call["open_think"])
            reward = judge_answer(text, task, call["ground_truth"], call["level"])["reward"]
            if reward != call["reward"]:
                mismatches.append((call["completion"], reward, call["reward"]))
        self.assertEqual(mismatches[:3], [])
        print("completions compared: %d" % len(completions))

    def test_compute_score_on_decoded_multi_turn_responses(self):
        responses = [call for call in self.calls if call["kind"] == "response"]
        mismatches = []
        for call in responses:
            # The recording's thinking mode is per call; the Qwen3.5 generation prompt follows from it.
            self.bundle.enable_thinking = self.bundle.open_think = call["open_think"]
            self.bundle.generation_prefill = "<think>\n" if call["open_think"] else "<think>\n\n</think>\n\n"
            score = compute_score(
                "%s/stage1" % call["dataset"],
                call["solution_str"],
                call["ground_truth"],
                {
                    "dataset": call["dataset"],
                    "stage": "stage1",
                    "ground_truth_level": call["level"],
                    "trajectory_format": "qwen3.5-native-tools-v2",
                    "num_turns": 3,
                },
            )
            if score != float(call["reward"]):
                mismatches.append((call["solution_str"][-200:], score, call["reward"]))
        self.assertEqual(mismatches[:3], [])
        print("responses compared: %d" % len(responses))


if __name__ == "__main__":
    unittest.main()
