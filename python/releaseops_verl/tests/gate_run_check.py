"""Every final turn of a recorded ``gate rollout`` run, scored by VeRL's reward (``final_answer_text`` and
``judge_answer``), against what the TypeScript gate paid for it. Not a ``test_*`` module: it needs the run,
which ``test/answer-contract-parity.test.ts`` records and hands over (``RELEASEOPS_ANSWER_RUN``, with the
run's task bundle in ``RELEASEOPS_VERL_TASK``):

    python -m unittest releaseops_verl.tests.gate_run_check
"""

import json
import os
import unittest

from releaseops_verl.reward import ANSWER_CONTRACT, final_answer_text, judge_answer
from releaseops_verl.task import load_task_bundle


class RecordedGateRunTest(unittest.TestCase):
    def test_every_final_turn_scores_what_the_gate_paid(self):
        with open(os.environ["RELEASEOPS_ANSWER_RUN"], "r", encoding="utf-8") as handle:
            run = json.load(handle)
        self.assertEqual(run["contract"], ANSWER_CONTRACT)
        bundle = load_task_bundle()
        mismatches = []
        for episode in run["episodes"]:
            task = bundle.task(episode["dataset"])
            text = final_answer_text(episode["final_turn"], open_think=episode["open_think"])
            verdict = judge_answer(text, task, episode["ground_truth"], episode["level"])
            same_code = not episode["answered"] or verdict.get("code") == episode["code"]
            if verdict["reward"] != episode["reward"] or not same_code:
                mismatches.append((episode["case"], verdict["reward"], verdict.get("code"), episode["reward"], episode["code"]))
        self.assertEqual(mismatches, [])
        print("gate episodes compared: %d" % len(run["episodes"]))


if __name__ == "__main__":
    unittest.main()
