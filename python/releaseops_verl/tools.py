"""The four grading tools, answering exactly as the TypeScript env renders its observations.

``GradingTools(task).call(name, arguments)`` returns the text the env shows the model: the tool result as
``json.dumps(result, ensure_ascii=False)``, or ``{"error": {"code", "message"}}`` for a bad call (a bad
call is data the model sees, never an exception). Search is lexical and deterministic (the original's
scores: +100 exact name, +35 substring, +8 per shared field feature, +3 per shared table feature, +2 per
query feature in the description, examples and path; ties by catalog order); canonical ids in any
returned text are replaced by ``[redacted-id]``.
"""

from typing import Any, Dict, List, Optional, Sequence

from .arguments import MISSING, ArgumentsError, validate_arguments
from .task import GradingTask
from .text import dumps_unicode, lexical_features, normalize_key_text, short_summary

TOOL_NAMES = ("search_categories", "get_category_details", "get_category_examples", "browse_categories")
SEARCH_TOP_K = 5
MAX_EXAMPLE_LIMIT = 5


class ToolError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _strip(value: str) -> str:
    return value.strip()


def scope_key_of(category: Dict[str, Any]) -> str:
    if category["path"]:
        return category["path"][0]
    category_id = category["category_id"]
    head = category_id.split(":", 1)[1] if ":" in category_id else category_id
    for character in head:
        if character.isalpha():
            return character.upper()
    return head[:1]


class GradingTools:
    def __init__(self, task: GradingTask):
        self.task = task
        self._ids = sorted((category["category_id"] for category in task.categories), key=len, reverse=True)
        self._documents = []
        for index, (category, display) in enumerate(zip(task.categories, task.display_names)):
            entry = task.corpus[category["category_id"]]
            summary = entry["description"] or category["description"]
            name_text = " ".join(part for part in [display, category["name"], *category["path"]] if part)
            body_text = " ".join(part for part in [summary, *entry["descriptions"], *entry["examples"], *entry["path"]] if part)
            self._documents.append(
                {
                    "index": index,
                    "choice_id": task.choice_ids[index],
                    "scope": scope_key_of(category),
                    "name": self.public_text(display),
                    "summary": short_summary(self.public_text(summary)),
                    "name_text": normalize_key_text(name_text),
                    "name_features": lexical_features(name_text),
                    "body_features": lexical_features(body_text),
                }
            )
        self._groups: Dict[str, int] = {}
        for document in self._documents:
            self._groups[document["scope"]] = self._groups.get(document["scope"], 0) + 1

    def public_text(self, value: str) -> str:
        for category_id in self._ids:
            if category_id in value:
                value = value.replace(category_id, "[redacted-id]")
        return value

    def search(self, field_name: str, table_name: str, top_k: int = SEARCH_TOP_K, scope: Optional[str] = None) -> Dict[str, Any]:
        field = normalize_key_text(field_name)
        if not field:
            raise ToolError("empty_field_name", "field_name must be a non-empty string")
        if top_k != SEARCH_TOP_K:
            raise ToolError("invalid_top_k", "top_k is fixed at %d" % SEARCH_TOP_K)
        if scope is not None and scope not in self._groups:
            raise ToolError("unknown_scope", 'unknown scope_key "%s"; call browse_categories for the valid keys' % scope)
        field_features = lexical_features(field)
        table_features = lexical_features(normalize_key_text(table_name))
        query = field_features | table_features

        def score(document: Dict[str, Any]) -> int:
            value = 0
            if field == document["name_text"]:
                value += 100
            elif field in document["name_text"] or document["name_text"] in field:
                value += 35
            value += 8 * len(field_features & document["name_features"])
            value += 3 * len(table_features & document["name_features"])
            value += 2 * len(query & document["body_features"])
            return value

        documents = [document for document in self._documents if scope is None or document["scope"] == scope]
        ranked = sorted(documents, key=lambda document: (-score(document), document["index"]))[:top_k]
        return {
            "candidates": [
                {"choice_id": document["choice_id"], "name": document["name"], "summary": document["summary"]}
                for document in ranked
            ]
        }

    def _choice_ids(self, raw: Sequence[str]) -> List[str]:
        if not 1 <= len(raw) <= 5:
            raise ToolError("invalid_choice_ids", "choice_ids must contain between 1 and 5 ids")
        ids = [_strip(choice_id) for choice_id in raw]
        if any(not choice_id for choice_id in ids):
            raise ToolError("invalid_choice_ids", "choice_ids must contain non-empty strings")
        if len(set(ids)) != len(ids):
            raise ToolError("duplicate_choice_ids", "choice_ids must be unique")
        unknown = [choice_id for choice_id in ids if choice_id not in self.task.category_by_choice]
        if unknown:
            raise ToolError("unknown_choice_ids", "unknown opaque choice id(s): %s" % ", ".join(unknown))
        return ids

    def details(self, choice_ids: Sequence[str]) -> Dict[str, Any]:
        categories = []
        for choice_id in self._choice_ids(choice_ids):
            index = int(choice_id) - 1
            entry = self.task.corpus[self.task.categories[index]["category_id"]]
            categories.append(
                {
                    "choice_id": choice_id,
                    "name": self.public_text(self.task.display_names[index]),
                    "description": self.public_text(entry["description"]),
                    "descriptions": [self.public_text(text) for text in entry["descriptions"]],
                }
            )
        return {"categories": categories}

    def examples(self, choice_ids: Sequence[str], limit: int = 2) -> Dict[str, Any]:
        ids = self._choice_ids(choice_ids)
        if not 1 <= limit <= MAX_EXAMPLE_LIMIT:
            raise ToolError("invalid_limit", "limit must be an integer between 1 and %d" % MAX_EXAMPLE_LIMIT)
        categories = []
        for choice_id in ids:
            index = int(choice_id) - 1
            entry = self.task.corpus[self.task.categories[index]["category_id"]]
            categories.append(
                {
                    "choice_id": choice_id,
                    "name": self.public_text(self.task.display_names[index]),
                    "examples": [self.public_text(text) for text in entry["examples"][:limit]],
                }
            )
        return {"categories": categories}

    def browse(self) -> Dict[str, Any]:
        return {"groups": [{"scope_key": key, "category_count": count} for key, count in self._groups.items()]}

    def result(self, name: str, arguments: Any = MISSING) -> Dict[str, Any]:
        """The result object of one call; ``ToolError`` (with the env's code) for a bad call.

        ``arguments``: an object or its JSON text; left out means ``{}`` (``None`` is a bad call).
        """
        if name not in TOOL_NAMES:
            raise ToolError("unknown_tool", "Unknown tool: %s" % name)
        try:
            parsed = validate_arguments(name, arguments)
        except ArgumentsError as error:
            raise ToolError(error.code, str(error)) from None
        if name == "search_categories":
            return self.search(parsed["field_name"], parsed["table_name"], parsed["top_k"], parsed.get("scope"))
        if name == "get_category_details":
            return self.details(parsed["choice_ids"])
        if name == "get_category_examples":
            return self.examples(parsed["choice_ids"], parsed["limit"])
        return self.browse()

    def call(self, name: str, arguments: Any = MISSING) -> str:
        """The text the env renders for this call: the result, or ``{"error": {"code", "message"}}``."""
        try:
            return dumps_unicode(self.result(name, arguments))
        except ToolError as error:
            return dumps_unicode({"error": {"code": error.code, "message": error.message}})
