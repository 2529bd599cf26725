"""Unit tests of the Python adapters on a small bundle: hash checks, tool results and errors, reward and
final-turn extraction, VeRL registration with an injected ``function_tool``, and the agent-loop helpers."""

import json
import os
import unittest

from releaseops_verl import agent_loop, verl_function_tools
from releaseops_verl.arguments import ArgumentsError, validate_arguments
from releaseops_verl.reward import final_answer_text, judge_answer, parse_final_answer
from releaseops_verl.task import TaskBundle
from releaseops_verl.tools import GradingTools
from releaseops_verl.tests.support import write_bundle


class BundleTest(unittest.TestCase):
    def test_a_changed_byte_is_refused(self):
        with self.assertRaisesRegex(ValueError, "registry .* has sha256"):
            TaskBundle(write_bundle(corrupt="registry"))
        with self.assertRaisesRegex(ValueError, "grading standard"):
            TaskBundle(write_bundle(corrupt="grading"))

    def test_system_prompt_lists_choice_ids_and_rubric(self):
        task = TaskBundle(write_bundle()).task("demo")
        prompt = task.system_prompt()
        self.assertIn('Approved sensitivity levels:\n[["L1","public"],["L2","internal"]]\nCatalog (choice_id|name):\n1|钢种成分设计', prompt)
        self.assertNotIn("A1-1", prompt)
        self.assertEqual(task.user_prompt({"field_name": "coil_no", "table_name": None}),
                         'Classify this field metadata:\n{"field_name":"coil_no","table_name":"","field_description":"","table_description":""}')


class ToolsTest(unittest.TestCase):
    def setUp(self):
        self.tools = GradingTools(TaskBundle(write_bundle()).task("demo"))

    def test_search_ranks_and_redacts(self):
        result = json.loads(self.tools.call("search_categories", {"field_name": "员工 身份证", "table_name": "hr"}))
        self.assertEqual(result["candidates"][0]["choice_id"], "5")
        self.assertEqual(len(result["candidates"]), 5)
        text = self.tools.call("search_categories", {"field_name": "卷重", "table_name": ""})
        self.assertIn("[redacted-id]", text)
        self.assertNotIn("B4-1", text)

    def test_bad_calls_are_answers_not_exceptions(self):
        self.assertEqual(json.loads(self.tools.call("nope", {}))["error"]["code"], "unknown_tool")
        self.assertEqual(json.loads(self.tools.call("search_categories", {"field_name": " ", "table_name": ""}))["error"]["code"], "empty_field_name")
        self.assertEqual(json.loads(self.tools.call("get_category_details", {"choice_ids": ["1", " 1"]}))["error"]["code"], "duplicate_choice_ids")
        self.assertEqual(json.loads(self.tools.call("get_category_examples", {"choice_ids": ["1"], "limit": 9}))["error"]["code"], "invalid_limit")
        self.assertEqual(json.loads(self.tools.call("search_categories", {"field_name": "a", "table_name": "b", "scope": "Z"}))["error"]["code"], "unknown_scope")

    def test_zod_messages(self):
        cases = [
            ("search_categories", {}, "field_name: Invalid input: expected string, received undefined; table_name: Invalid input: expected string, received undefined"),
            ("search_categories", {"field_name": "a", "table_name": "b", "top_k": True}, "top_k: Invalid input: expected number, received boolean"),
            ("search_categories", {"field_name": "a", "table_name": "b", "top_k": 2.5}, "top_k: Invalid input: expected int, received number"),
            ("search_categories", {"field_name": "a", "table_name": "b", "top_k": float("nan")}, "top_k: Invalid input: expected number, received NaN"),
            ("search_categories", {"field_name": "a", "table_name": "b", "z": 1, "10": 1, "2": 1}, 'Unrecognized keys: "2", "10", "z"'),
            ("get_category_details", {"choice_ids": [1, "2", 3, "4", "5", "6"]}, "choice_ids: Too big: expected array to have <=5 items"),
            ("get_category_details", {"choice_ids": [1, None]}, "choice_ids.0: Invalid input: expected string, received number; choice_ids.1: Invalid input: expected string, received null"),
            ("get_category_examples", {"limit": 10 ** 20}, "choice_ids: Invalid input: expected array, received undefined; limit: Too big: expected int to be <=9007199254740991"),
            ("browse_categories", [], "Invalid input: expected object, received array"),
            ("browse_categories", '{"a": NaN}', "Arguments for browse_categories are not valid JSON."),
        ]
        for tool, arguments, message in cases:
            with self.assertRaises(ArgumentsError) as caught:
                validate_arguments(tool, arguments)
            self.assertEqual(str(caught.exception), message)
        self.assertEqual(validate_arguments("search_categories", '{"field_name": "a", "table_name": "b", "top_k": 5.0}')["top_k"], 5)


class RewardTest(unittest.TestCase):
    def setUp(self):
        self.task = TaskBundle(write_bundle()).task("demo")

    def test_strict_answer(self):
        self.assertEqual(judge_answer('{"answer": "4", "level": "L2"}', self.task, "C5-1", "L2")["reward"], 1)
        self.assertEqual(judge_answer('{"answer": "4", "level": "L1"}', self.task, "C5-1", "L2")["level_correct"], False)
        for text, code in [
            ("", "empty_answer"), ("```json\n{}\n```", "answer_not_json"), ("[1]", "answer_not_object"),
            ('{"answer": "4", "answer": "4", "level": "L2"}', "answer_not_json"),
            ('{"answer": "4"}', "answer_keys"), ('{"answer": 4, "level": "L2"}', "answer_invalid"),
            ('{"answer": "4", "level": " "}', "level_invalid"), ('{"answer": "9", "level": "L2"}', "unknown_choice_id"),
            ('{"answer": "4", "level": "L3"}', "unknown_level"),
        ]:
            self.assertEqual(parse_final_answer(text, self.task)["code"], code, text)

    def test_final_answer_text(self):
        answer = '{"answer": "4", "level": "L2"}'
        self.assertEqual(final_answer_text(answer), answer)
        self.assertEqual(final_answer_text("thinking\n</think>\n\n" + answer, open_think=True), answer)
        self.assertEqual(final_answer_text("still thinking " + answer, open_think=True), "")
        self.assertEqual(final_answer_text(answer + "<|im_end|>"), answer)
        decoded = "<tool_call>\n<function=browse_categories>\n</function>\n</tool_call>\nuser\n<tool_response>\n{}\n</tool_response>\nassistant\n<think>\n\n</think>\n\n" + answer
        self.assertEqual(final_answer_text(decoded), answer)
        with_tokens = decoded.replace("\nuser\n", "<|im_end|>\n<|im_start|>user\n").replace("\nassistant\n", "<|im_end|>\n<|im_start|>assistant\n") + "<|im_end|>"
        self.assertEqual(final_answer_text(with_tokens), answer)
        ended_on_call = "<tool_call>\n<function=browse_categories>\n</function>\n</tool_call>"
        self.assertEqual(parse_final_answer(final_answer_text(ended_on_call), self.task)["code"], "answer_not_json")

    def test_compute_score_routes_and_fails_closed(self):
        from releaseops_verl import reward, task as task_module

        os.environ[task_module.TASK_ENVIRONMENT_VARIABLE] = write_bundle()
        try:
            info = {"dataset": "demo", "stage": "stage1", "ground_truth_level": "L2", "trajectory_format": "qwen3.5-native-tools-v2"}
            self.assertEqual(reward.compute_score("demo/stage1", '{"answer": "4", "level": "L2"}', "C5-1", dict(info, num_turns=2)), 1.0)
            self.assertEqual(reward.compute_score("demo/stage1", "no answer", "C5-1", info), 0.0)
            with self.assertRaisesRegex(ValueError, "stage1"):
                reward.compute_score("demo/stage2", "{}", "C5-1", info)
            with self.assertRaisesRegex(ValueError, "rubric"):
                reward.compute_score("demo/stage1", "{}", "C5-1", dict(info, ground_truth_level="L7"))
            with self.assertRaisesRegex(ValueError, "not in the task bundle"):
                reward.compute_score("other/stage1", "{}", "C5-1", dict(info, dataset="other"))
        finally:
            del os.environ[task_module.TASK_ENVIRONMENT_VARIABLE]


class VerlRegistrationTest(unittest.TestCase):
    def test_function_tools_register_with_the_env_schemas(self):
        bundle_path = write_bundle()
        directory = os.path.dirname(bundle_path)
        schemas = [{"type": "function", "function": {"name": name, "description": name, "parameters": {"type": "object", "properties": {}}}}
                   for name in ("search_categories", "get_category_details", "get_category_examples", "browse_categories")]
        with open(os.path.join(directory, "tool_schemas.json"), "w", encoding="utf-8") as handle:
            json.dump(schemas, handle)
        registered = {}

        def function_tool(name, schema=None):
            def decorator(function):
                registered[name] = (function, schema)
                return function
            return decorator

        os.environ["RELEASEOPS_VERL_TOOL_SCHEMAS"] = os.path.join(directory, "tool_schemas.json")
        os.environ["RELEASEOPS_VERL_TASK"] = bundle_path
        verl_function_tools._TOOLS.clear()
        try:
            verl_function_tools.register(function_tool)
            self.assertEqual(sorted(registered), sorted(verl_function_tools.FUNCTIONS))
            function, schema = registered["get_category_details"]
            self.assertEqual(schema["function"]["name"], "get_category_details")
            self.assertEqual(json.loads(function(choice_ids=["2"]))["categories"][0]["name"], "新品试制")
            self.assertEqual(json.loads(function(choice_ids=["2"], x=1))["error"]["code"], "invalid_arguments")
            with open(os.path.join(directory, "tool_schemas.json"), "w", encoding="utf-8") as handle:
                json.dump(schemas[:3], handle)
            with self.assertRaisesRegex(ValueError, "declares"):
                verl_function_tools.register(function_tool)
        finally:
            del os.environ["RELEASEOPS_VERL_TOOL_SCHEMAS"]
            del os.environ["RELEASEOPS_VERL_TASK"]
            verl_function_tools._TOOLS.clear()


class AgentLoopHelpersTest(unittest.TestCase):
    def test_final_policy_segment(self):
        self.assertEqual(agent_loop.final_policy_token_ids([1, 2, 3, 4, 5], [1, 1, 0, 1, 1]), (4, 5))
        self.assertEqual(agent_loop.final_policy_token_ids([1, 2, 3], [1, 1, 0]), ())
        self.assertEqual(agent_loop.final_policy_token_ids([7, 8], [1, 1]), (7, 8))
        with self.assertRaises(ValueError):
            agent_loop.final_policy_token_ids([1], [1, 1])

    def test_row_checks(self):
        bundle = TaskBundle(write_bundle())
        row = {
            "extra_info": {"dataset": "demo", "stage": "stage1", "source_id": "mix:demo:0:0000", "metadata": {},
                           "ground_truth_level": "L2", "trajectory_format": "qwen3.5-native-tools-v2", "index": 3},
            "reward_model": {"style": "rule", "ground_truth": "C5-1"},
            "raw_prompt": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
        }
        self.assertEqual(agent_loop.check_row(row, bundle)["ground_truth"], "C5-1")
        for change, message in [
            ({"extra_info": dict(row["extra_info"], candidates=["A1-1"])}, "unexpected keys"),
            ({"extra_info": dict(row["extra_info"], stage="stage2")}, "stage1"),
            ({"reward_model": {"style": "rule", "ground_truth": "Z"}}, "registry"),
            ({"raw_prompt": [{"role": "user", "content": "u"}]}, "system, user"),
            ({"raw_prompt": [{"role": "system", "content": "C5-1"}, {"role": "user", "content": "u"}]}, "exposes"),
        ]:
            with self.assertRaisesRegex(ValueError, message):
                agent_loop.check_row(dict(row, **change), bundle)


if __name__ == "__main__":
    unittest.main()
