"""Golden renders of the official Qwen chat templates, for src/chat/render-template.test.ts.

Generates conversations with a seeded `random.Random` and renders each with Python jinja2 configured as
transformers configures it (`transformers/utils/chat_template_utils.py::_compile_jinja_template`):
ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols]), a `tojson`
filter equal to json.dumps(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False), and a
`raise_exception` global. Before rendering, tool-call `arguments` given as a JSON string that decodes to an
object are decoded (what vLLM's `_postprocess_messages` does); undecodable strings stay strings.

Run from the repository root (needs jinja2; scripts/setup-python.sh installs it):
    .venv/bin/python src/chat/__fixtures__/make-template-goldens.py
"""

import copy
import hashlib
import json
import random
from pathlib import Path

import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = Path(__file__).parent
TEMPLATES = {
    "qwen3": HERE / "templates" / "qwen3.jinja",
    "qwen3.5": HERE / "templates" / "qwen3_5_think.jinja",
    "qwen3.5-nothink": HERE / "templates" / "qwen3_5_nothink.jinja",
}
CONVERSATIONS = 240
FULL_TEXT_EVERY = 8  # every 8th render keeps its full text (the rest keep sha256 + length)


def compile_template(text):
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    environment = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    environment.filters["tojson"] = tojson
    environment.globals["raise_exception"] = raise_exception
    return environment.from_string(text)


TEXTS = [
    "Weather in Paris?",
    "Résumé the release notes, s'il vous plaît.",
    "检查这个发布候选版本的风险。",
    "Emoji check 🚀🔥 and a flag 🇫🇷 and a family 👨‍👩‍👧.",
    "مرحبا بالعالم",
    "Line one\nLine two\n\nLine four",
    "  leading and trailing spaces  ",
    "\nleading newline",
    "trailing newline\n",
    'JSON-looking {"a": 1, "b": [true, null]} text',
    "Markup <b>bold</b> & <i>italic</i> < > &amp;",
    "Tabs\tand\tbackslashes \\ and quotes \" '",
    "Ελληνικά και русский текст",
    "日本語のテキスト、カタカナ、ひらがな。",
    "x" * 300,
    "Numbers 3.14159 -2 1e-05 0x1F",
    "\ufeffBOM-led text with a BOM at the end\ufeff",
    "\x85 next-line and \x1c file-separator edges \u3000",
    " \n\u00a0non-breaking edges\u00a0\n ",
    "",
]

TOOL_POOL = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name, e.g. Paris"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "inspect_pr_diff",
            "description": "Inspect a pull request diff for risky edits. Costs one review-budget unit.",
            "parameters": {
                "type": "object",
                "properties": {"pr_id": {"type": "string", "description": "Pull request id such as pr_482."}},
                "required": ["pr_id"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_records",
            "description": "Search records; returns at most `limit` hits. 搜索记录。",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50},
                    "threshold": {"type": "number"},
                    "exact": {"type": "boolean"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "filters": {"type": "object", "properties": {"owner": {"type": "string"}}},
                    "cursor": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "block_proposal",
            "description": "Block an unresolved proposal that violates a release safety rule.",
            "parameters": {
                "type": "object",
                "properties": {
                    "proposal_id": {"type": "string"},
                    "rule_id": {"type": "string", "enum": ["S1", "S2", "S3"]},
                },
                "required": ["proposal_id", "rule_id"],
            },
        },
    },
    {"type": "function", "function": {"name": "hold_release", "description": "Hold the release.", "parameters": {"type": "object", "properties": {}}}},
]


def argument_value(rng, depth=0):
    kind = rng.choice(["str", "str", "int", "float", "bool", "none", "list", "dict"] if depth < 2 else ["str", "int", "bool"])
    if kind == "str":
        return rng.choice(["Paris", "pr_482", "S2", "检查", "a b\nc", "", "x\"y", "émoji 🚀", "1e-05"])
    if kind == "int":
        return rng.randint(-1000, 100000)
    if kind == "float":
        return rng.choice([2.5, -0.125, 3.14159, 1e-05, 123456.75, 0.1])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "none":
        return None
    if kind == "list":
        return [argument_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["k", "owner", "名", "deep"]) + str(i): argument_value(rng, depth + 1) for i in range(rng.randint(0, 3))}


def tool_call(rng, tools, allow_string):
    names = [tool["function"]["name"] for tool in tools] or ["get_weather"]
    name = rng.choice(names + ["unknown_tool"] if rng.random() < 0.1 else names)
    arguments = {rng.choice(["city", "pr_id", "query", "limit", "tags", "filters", "flag", "值"]) + ("" if i == 0 else str(i)): argument_value(rng) for i in range(rng.randint(0, 4))}
    style = rng.random()
    if style < 0.15:
        # OpenAI wire style: a JSON string (decodes to the same object).
        arguments = json.dumps(arguments, ensure_ascii=rng.random() < 0.5, separators=rng.choice([(",", ":"), (", ", ": ")]))
    elif allow_string and style < 0.2:
        arguments = '{"city": "Par'  # undecodable: qwen3 inserts it raw
    call = {"type": "function", "function": {"name": name, "arguments": arguments}}
    if rng.random() < 0.7:
        call["id"] = "call_%d" % rng.randint(0, 10**6)
    return call


def assistant_message(rng, tools, allow_string, final):
    message = {"role": "assistant"}
    content_kind = rng.random()
    if content_kind < 0.35:
        message["content"] = ""
    elif content_kind < 0.45:
        message["content"] = None
    elif content_kind < 0.55:
        message["content"] = "<think>\n" + rng.choice(TEXTS[:6]) + "\n</think>\n\n" + rng.choice(TEXTS[:8])
    else:
        message["content"] = rng.choice(TEXTS)
    if rng.random() < 0.4 and "<think>" not in (message["content"] or ""):
        message["reasoning_content"] = rng.choice(["I should call the tool.", "\nNeed more evidence.\n", "考虑一下。", "", "Multi\nline\nreasoning"])
    if not final and (rng.random() < 0.8 or not message.get("content")):
        message["tool_calls"] = [tool_call(rng, tools, allow_string) for _ in range(rng.randint(1, 3))]
    if message.get("content") is None and "tool_calls" not in message:
        message["content"] = "Done."
    return message


def tool_content(rng):
    kind = rng.random()
    if kind < 0.5:
        return json.dumps({"status": rng.choice(["ok", "失败", "error"]), "items": [rng.randint(0, 9) for _ in range(rng.randint(0, 3))], "note": rng.choice(TEXTS[:6])}, ensure_ascii=False)
    if kind < 0.6:
        return ""
    return rng.choice(TEXTS)


def conversation(rng, index):
    tools = rng.sample(TOOL_POOL, rng.randint(0, 3)) if rng.random() < 0.8 else []
    allow_string = rng.random() < 0.3
    messages = []
    if rng.random() < 0.75:
        messages.append({"role": "system", "content": rng.choice(["You are a helpful agent.", "You are the release oversight supervisor. Use tools sparingly.", "系统提示。\n第二行。", "  padded system  ", ""])})
    queries = rng.randint(1, 3)
    for query in range(queries):
        messages.append({"role": "user", "content": rng.choice(TEXTS[:-1] if query == 0 else TEXTS)})
        for _ in range(rng.randint(0, 3)):
            assistant = assistant_message(rng, tools, allow_string, final=False)
            messages.append(assistant)
            for call in assistant.get("tool_calls", []):
                tool_message = {"role": "tool", "content": tool_content(rng)}
                if "id" in call:
                    tool_message["tool_call_id"] = call["id"]
                if rng.random() < 0.3:
                    tool_message["name"] = call["function"]["name"]
                messages.append(tool_message)
        if query < queries - 1 or rng.random() < 0.5:
            messages.append(assistant_message(rng, tools, allow_string, final=True))
    case = {"id": index, "messages": messages, "tools": tools, "add_generation_prompt": messages[-1]["role"] != "assistant"}
    thinking = rng.random()
    if thinking < 0.33:
        case["enable_thinking"] = False
    elif thinking < 0.66:
        case["enable_thinking"] = True
    return case


def vllm_postprocess(messages):
    result = copy.deepcopy(messages)
    for message in result:
        for call in message.get("tool_calls") or []:
            arguments = call["function"].get("arguments")
            if isinstance(arguments, str):
                try:
                    decoded = json.loads(arguments)
                except ValueError:
                    continue
                if isinstance(decoded, dict):
                    call["function"]["arguments"] = decoded
    return result


ERROR_CASES = [
    {"id": "system-not-first", "messages": [{"role": "user", "content": "hi"}, {"role": "system", "content": "late"}], "tools": [], "add_generation_prompt": True},
    {"id": "no-user-query", "messages": [{"role": "system", "content": "s"}, {"role": "assistant", "content": "a"}], "tools": [], "add_generation_prompt": True},
    {"id": "unknown-role", "messages": [{"role": "user", "content": "hi"}, {"role": "critic", "content": "x"}], "tools": [], "add_generation_prompt": True},
]


def render(template, case):
    kwargs = {"messages": vllm_postprocess(case["messages"]), "tools": case["tools"] or None, "add_generation_prompt": case["add_generation_prompt"]}
    if "enable_thinking" in case:
        kwargs["enable_thinking"] = case["enable_thinking"]
    try:
        text = template.render(**kwargs)
    except Exception as error:  # noqa: BLE001 - any template failure is a golden outcome
        return {"error": type(error).__name__, "message": str(error)}
    return {"sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "length": len(text.encode("utf-8"))} | ({"text": text} if case["id"] % FULL_TEXT_EVERY == 0 else {})


def main():
    rng = random.Random(20261129)
    cases = [conversation(rng, index) for index in range(CONVERSATIONS)]
    templates = {name: compile_template(path.read_text(encoding="utf-8")) for name, path in TEMPLATES.items()}
    renders = {name: [render(template, case) for case in cases] for name, template in templates.items()}
    errors = {}
    for name, template in templates.items():
        errors[name] = []
        for case in ERROR_CASES:
            try:
                template.render(messages=case["messages"], tools=None, add_generation_prompt=True)
                errors[name].append({"id": case["id"], "error": None})
            except Exception as error:  # noqa: BLE001
                errors[name].append({"id": case["id"], "error": str(error)})
    output = {
        "generator": "src/chat/__fixtures__/make-template-goldens.py",
        "jinja2": jinja2.__version__,
        "conversations": cases,
        "renders": renders,
        "error_cases": ERROR_CASES,
        "errors": errors,
    }
    path = HERE / "template-goldens.json"
    path.write_text(json.dumps(output, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    counts = {name: sum(1 for item in items if "error" not in item) for name, items in renders.items()}
    print("wrote", path, "conversations", len(cases), "rendered", counts)


if __name__ == "__main__":
    main()
