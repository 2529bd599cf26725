"""``ReleaseOpsEnv`` satisfies TRL's ``environment_factory`` contract against a live server.

TRL (``trl/trainer/grpo_trainer.py``) makes every public bound method but ``reset`` and
``get_reward`` a tool and builds its JSON schema with transformers' ``get_json_schema`` (Google-style
docstring, a type hint and an ``Args:`` entry per parameter, ``(choices: [...])`` for enums). The
parser below follows transformers' ``chat_template_utils.py`` rules, so a method TRL would reject
fails here; its schemas must equal the server's tool schemas.
"""

import inspect
import json
import re
import socket
import threading
import typing
import unittest
import urllib.parse

from releaseops_client import ReleaseOpsEnv
from releaseops_client.client import ReleaseOpsConnectionError

from .support import expected_episode, server_url

_DESCRIPTION = re.compile(r"^(.*?)[\n\s]*(Args:|Returns:|Raises:|\Z)", re.DOTALL)
_ARGS = re.compile(r"\n\s*Args:\n\s*(.*?)[\n\s]*(Returns:|Raises:|\Z)", re.DOTALL)
_ARG_SPLIT = re.compile(r"(?:^|\n)\s*(\w+):\s*(.*?)\s*(?=\n\s*\w+:|\Z)", re.DOTALL)
_CHOICES = re.compile(r"\(choices:\s*(.*?)\)\s*$", re.IGNORECASE)
_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


class DroppingProxy:
    """A TCP proxy to the live server that closes its next ``drop`` connections unanswered, as a
    server or worker that dies mid-request does."""

    def __init__(self, target, drop):
        parsed = urllib.parse.urlsplit(target)
        self.target = (parsed.hostname, parsed.port)
        self.drop = drop
        self.dropped = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d" % self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.drop > 0:
                self.drop -= 1
                self.dropped += 1
                client.recv(65536)
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.listener.close()


def tool_methods(instance):
    """What TRL turns into tools: public bound methods except reset and get_reward."""
    return {
        name: method
        for name, method in inspect.getmembers(instance, predicate=inspect.ismethod)
        if not name.startswith("_") and name not in ("reset", "get_reward")
    }


def json_schema(method):
    """The tool schema transformers' get_json_schema builds (raises where it would)."""
    doc = inspect.getdoc(method)
    if not doc:
        raise AssertionError("%s has no docstring" % method.__name__)
    description = _DESCRIPTION.search(doc).group(1).strip()
    args_block = _ARGS.search(doc)
    args = {}
    if args_block:
        block = "\n".join(line for line in args_block.group(1).strip().split("\n") if line.strip())
        args = {name: re.sub(r"\s*\n+\s*", " ", text.strip()) for name, text in _ARG_SPLIT.findall(block)}
    hints = typing.get_type_hints(method)
    properties, required = {}, []
    for name, parameter in inspect.signature(method).parameters.items():
        if name not in hints:
            raise AssertionError("%s.%s has no type hint" % (method.__name__, name))
        if name not in args:
            raise AssertionError("%s.%s has no Args: entry" % (method.__name__, name))
        schema = {"type": _TYPES[hints[name]]}
        text = args[name]
        choices = _CHOICES.search(text)
        if choices:
            schema["enum"] = [choice.strip() for choice in json.loads(choices.group(1))]
            text = text[: choices.start()].strip()
        schema["description"] = text
        properties[name] = schema
        if parameter.default is inspect.Parameter.empty:
            required.append(name)
    return {"name": method.__name__, "description": description, "parameters": {"type": "object", "properties": properties, "required": required}}


def server_schema(tool):
    parameters = tool["input_schema"]
    properties = {
        name: {key: value for key, value in (("type", spec["type"]), ("enum", spec.get("enum")), ("description", spec["description"])) if value is not None}
        for name, spec in parameters["properties"].items()
    }
    return {"name": tool["name"], "description": tool["description"], "parameters": {"type": "object", "properties": properties, "required": parameters["required"]}}


class EnvironmentFactoryContract(unittest.TestCase):
    def setUp(self):
        self.expected = expected_episode()
        ReleaseOpsEnv.base_url = server_url()
        ReleaseOpsEnv.env_id = self.expected["env_id"]

    def test_zero_argument_factory_and_public_surface(self):
        env = ReleaseOpsEnv()
        public = sorted(name for name, _ in inspect.getmembers(env, predicate=inspect.ismethod) if not name.startswith("_"))
        self.assertEqual(public, sorted(self.expected["tool_names"] + ["get_reward", "reset"]))
        self.assertEqual(env.reward, 0.0)

    def test_tool_schemas_equal_the_server_tools(self):
        env = ReleaseOpsEnv()
        tools = env._client.tools()
        ours = {name: json_schema(method) for name, method in tool_methods(env).items()}
        theirs = {tool["name"]: server_schema(tool) for tool in tools}
        self.assertEqual(ours, theirs)

    def test_the_parser_rejects_what_transformers_rejects(self):
        class Undocumented(ReleaseOpsEnv):
            def peek(self, what: str) -> str:
                """Peek at something."""
                return what

        with self.assertRaises(AssertionError):
            json_schema(Undocumented().peek)

    def test_reset_takes_the_whole_row_and_tools_return_the_observation_text(self):
        env = ReleaseOpsEnv()
        row = dict(self.expected["row"], prompt=[{"role": "user", "content": "supervise"}], split="train")
        self.assertEqual(env.reset(**row), self.expected["reset_text"])
        for step in self.expected["steps"]:
            text = getattr(env, step["tool"])(**step["arguments"])
            self.assertEqual(text, step["text"])
            self.assertAlmostEqual(env.reward, step["cumulative_reward"], places=12)
            self.assertEqual(env.get_reward(), env.reward)
            self.assertEqual(env.done, step["done"])
        session_id = env._box["session"].id
        self.assertEqual(env.reset(**row), self.expected["reset_text"])
        self.assertEqual(env._box["session"].id, session_id, "reset reuses the instance's session")
        self.assertEqual(env.reward, 0.0)

    def test_a_reaped_session_is_replaced_on_reset(self):
        env = ReleaseOpsEnv()
        env.reset(seed=3)
        env._box["session"].close()
        self.assertEqual(env.reset(**self.expected["row"]), self.expected["reset_text"])

    def test_a_reset_is_retried_once_on_a_connection_error(self):
        proxy = DroppingProxy(server_url(), drop=1)
        try:
            env = ReleaseOpsEnv(base_url=proxy.url)
            self.assertEqual(env.reset(**self.expected["row"]), self.expected["reset_text"])
            self.assertEqual(proxy.dropped, 1)
            proxy.drop = 2
            with self.assertRaises(ReleaseOpsConnectionError):
                env.reset(**self.expected["row"])
        finally:
            proxy.close()

    def test_tools_before_reset_and_after_the_step_limit_raise(self):
        env = ReleaseOpsEnv()
        with self.assertRaises(ValueError):
            env.hold_release(reason_code="awaiting_fix")
        env.reset(seed=5)
        for _ in range(self.expected["max_episode_steps"]):
            env.inspect_ticket(ticket_id="nope")
        self.assertTrue(env.done)
        with self.assertRaises(ValueError):
            env.inspect_ticket(ticket_id="nope")

    def test_pooled_instances_in_threads_are_isolated(self):
        results = {}

        def play(index):
            env = ReleaseOpsEnv()
            env.reset(**self.expected["row"])
            texts = [getattr(env, step["tool"])(**step["arguments"]) for step in self.expected["steps"]]
            results[index] = (texts, env.reward)

        threads = [threading.Thread(target=play, args=(index,)) for index in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        expected_texts = [step["text"] for step in self.expected["steps"]]
        for index in range(8):
            self.assertEqual(results[index][0], expected_texts)
            self.assertAlmostEqual(results[index][1], self.expected["steps"][-1]["cumulative_reward"], places=12)


if __name__ == "__main__":
    unittest.main()
