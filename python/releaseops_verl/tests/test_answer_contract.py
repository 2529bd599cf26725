"""The answer contract (the grading env's README, "Final answer contract") in Python: every case of the
committed corpus of adversarial final turns scores what the corpus says, from the final turn's own tokens
(as the agent loop scores) and from the whole decoded response (as ``compute_score`` does). The TypeScript
gate is held to the same corpus by ``test/answer-contract-parity.test.ts``, which also has ``gate_run_check``
score every final turn of a recorded ``gate rollout`` run.
"""

import json
import os
import unittest

from releaseops_verl.reward import ANSWER_CONTRACT, compute_score, final_answer_text, judge_answer
from releaseops_verl.task import load_task_bundle
from releaseops_verl.tests.support import write_bundle

CORPUS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "answer_contract_corpus.json")
# The support bundle's labels: B4-1 is choice "3"; "1" is another leaf.
LABELS = {"{{ANSWER}}": "3", "{{LEVEL}}": "L2", "{{WRONG}}": "1"}
GROUND_TRUTH = "B4-1"
TOOL_RESPONSE = '{"candidates": [{"choice_id": "3", "name": "生产实绩", "summary": "卷重"}]}'


def fill(text):
    for key, value in LABELS.items():
        text = text.replace(key, value)
    return text


def prefill_of(case):
    """The generation prompt's text after the assistant header, for the case's template and thinking mode."""
    if not case["enable_thinking"]:
        return "<think>\n\n</think>\n\n"
    return "<think>\n" if case["open_think"] else ""


def decoded_response(case, special_tokens):
    """The whole response as VeRL's reward manager decodes it: tool turns, tool results, the final turn."""
    turns = [fill(turn) for turn in case["turns"]]
    if special_tokens:
        between = "<|im_end|>\n<|im_start|>user\n<tool_response>\n%s\n</tool_response><|im_end|>\n<|im_start|>assistant\n"
        end = "<|im_end|>"
    else:
        between = "\nuser\n<tool_response>\n%s\n</tool_response>\nassistant\n"
        end = ""
    text = turns[0]
    for turn in turns[1:]:
        text += between % TOOL_RESPONSE + prefill_of(case) + turn
    return text + end


class AnswerContractCorpusTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(CORPUS_PATH, "r", encoding="utf-8") as handle:
            cls.corpus = json.load(handle)
        cls.bundles = {}

    def bundle_for(self, case):
        key = (case["enable_thinking"], case["open_think"], prefill_of(case))
        if key not in self.bundles:
            path = write_bundle(enable_thinking=key[0], open_think=key[1], generation_prefill=key[2])
            self.bundles[key] = (path, load_task_bundle(path))
        return self.bundles[key]

    def test_the_corpus_names_this_contract_and_covers_every_format(self):
        self.assertEqual(self.corpus["contract"], ANSWER_CONTRACT)
        formats = {(case["format"], case["enable_thinking"]) for case in self.corpus["cases"]}
        self.assertEqual(
            formats,
            {("qwen3.5", True), ("qwen3.5-nothink", False), ("qwen3", False), ("qwen3", True), ("native", False), ("native", True)},
        )
        self.assertGreaterEqual(len([case for case in self.corpus["cases"] if not case["gate_answers"]]), 20)

    def test_final_turns_score_as_the_corpus_says(self):
        mismatches = []
        for case in self.corpus["cases"]:
            task = self.bundle_for(case)[1].task("demo")
            text = final_answer_text(fill(case["turns"][-1]), open_think=case["open_think"])
            verdict = judge_answer(text, task, GROUND_TRUTH, LABELS["{{LEVEL}}"])
            got = (verdict["reward"], verdict.get("code"))
            if got != (case["reward"], case["code"]):
                mismatches.append((case["id"], got, (case["reward"], case["code"])))
        self.assertEqual(mismatches, [])
        print("corpus cases compared: %d" % len(self.corpus["cases"]))

    def test_compute_score_reads_whole_responses_the_same(self):
        mismatches = []
        previous = os.environ.get("RELEASEOPS_VERL_TASK")
        try:
            for case in self.corpus["cases"]:
                # compute_score finds its bundle as VeRL's worker does: through the environment.
                os.environ["RELEASEOPS_VERL_TASK"] = self.bundle_for(case)[0]
                for special in (True, False):
                    score = compute_score(
                        "demo/stage1",
                        decoded_response(case, special),
                        GROUND_TRUTH,
                        {"dataset": "demo", "stage": "stage1", "ground_truth_level": "L2"},
                    )
                    if score != float(case["reward"]):
                        mismatches.append((case["id"], special, score))
        finally:
            if previous is None:
                os.environ.pop("RELEASEOPS_VERL_TASK", None)
            else:
                os.environ["RELEASEOPS_VERL_TASK"] = previous
        self.assertEqual(mismatches, [])


if __name__ == "__main__":
    unittest.main()
