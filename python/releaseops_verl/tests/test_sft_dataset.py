"""The SFT dataset adapter's cleaning: Parquet's padded ``None`` keys dropped, arrays turned into lists, and
the subclass cleaning both the dataframe and the extracted per-row lists after the base class loads."""

import unittest

from releaseops_verl.verl_sft_dataset import drop_none_keys, null_free_dataset_class


class FakeArray:
    """Stands for a numpy array or scalar: only ``tolist`` matters."""

    def __init__(self, value):
        self.value = value

    def tolist(self):
        return self.value


class FakeFrame(dict):
    @property
    def columns(self):
        return list(self)


PADDED = [
    {"role": "system", "content": "s", "reasoning_content": None, "tool_calls": None, "tool_call_id": None, "name": None},
    {
        "role": "assistant",
        "content": "",
        "reasoning_content": "",
        "tool_calls": FakeArray([{"id": "call_0_0", "type": "function",
                                  "function": {"name": "search_categories",
                                               "arguments": {"field_name": "coil", "table_name": "t", "top_k": None,
                                                             "scope": None, "choice_ids": None, "limit": FakeArray(2)}}}]),
        "tool_call_id": None,
        "name": None,
    },
]
CLEAN = [
    {"role": "system", "content": "s"},
    {"role": "assistant", "content": "", "reasoning_content": "",
     "tool_calls": [{"id": "call_0_0", "type": "function",
                     "function": {"name": "search_categories", "arguments": {"field_name": "coil", "table_name": "t", "limit": 2}}}]},
]


class SftDatasetTest(unittest.TestCase):
    def test_drop_none_keys_keeps_order_falsy_values_and_list_items(self):
        self.assertEqual(drop_none_keys(PADDED), CLEAN)
        self.assertEqual(list(drop_none_keys({"b": 1, "a": None, "c": False, "d": ""})), ["b", "c", "d"])
        self.assertEqual(drop_none_keys([None, {"x": None}]), [None, {}])

    def test_subclass_cleans_what_the_base_loaded(self):
        class Base:
            messages_key = "messages"
            tools_key = "tools"

            def _read_files_and_process(self):
                self.dataframe = FakeFrame(messages=[PADDED], tools=[[{"type": "function", "function": {"name": "x", "parameters": {"type": "object", "enum": None}}}]], other=[1])
                self.messages = [PADDED]
                self.tools = None

        dataset = null_free_dataset_class(Base)()
        dataset._read_files_and_process()
        self.assertEqual(dataset.messages, [CLEAN])
        self.assertEqual(dataset.dataframe["messages"], [CLEAN])
        self.assertEqual(dataset.dataframe["tools"], [[{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]])
        self.assertEqual(dataset.dataframe["other"], [1])
        self.assertIsNone(dataset.tools)


if __name__ == "__main__":
    unittest.main()
