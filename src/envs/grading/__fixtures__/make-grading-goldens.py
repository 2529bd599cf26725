"""Golden outputs of the grading task computed the way the original Python pipeline computes them.

An independent peer for byte-compatibility tests: NFKC + casefold + `\\s` semantics of CPython, json.dumps
spacing, uuid5, sha256 permutations. Reads grading-golden-input.json, writes grading-goldens.json.
Run from the repository root: .venv/bin/python src/envs/grading/__fixtures__/make-grading-goldens.py
"""

import hashlib
import json
import re
import unicodedata
import uuid
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
WS = re.compile(r"\s+")
ASCII_TOKEN = re.compile(r"[a-z0-9]+")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")

SYSTEM_PREAMBLE = (
    "You classify one database field into one category and assign a sensitivity level.\n"
    "The full category catalog is listed below as \"choice_id|name\" lines; recall "
    "candidates from this catalog directly using field and table semantics. When "
    "candidate names alone are ambiguous, call get_category_details or "
    "get_category_examples on the candidate ids to inspect definitions and samples. "
    "If the catalog seems insufficient you may call search_categories(field_name, "
    "table_name) once as a fallback hint. Make at most three tool calls total.\n"
    "Your terminal response must be exactly one JSON object with keys answer and "
    "level. answer must be an opaque choice_id from the catalog, never a category "
    "name or canonical id. level must be one approved sensitivity code. Do not "
    "output reasoning, Markdown, or extra keys.\n"
    "Approved sensitivity levels:\n"
)
NATIVE_FIELDS = ("field_name", "table_name", "field_description", "table_description")


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def normalize(value):
    return WS.sub(" ", unicodedata.normalize("NFKC", value).strip()).casefold()


def features(value):
    normalized = normalize(value)
    flat = normalized.replace(" ", "")
    found = set(ASCII_TOKEN.findall(normalized))
    found.update(CJK.findall(normalized))
    if len(flat) == 1:
        found.add(flat)
    else:
        found.update(flat[i : i + 2] for i in range(len(flat) - 1))
    return frozenset(item for item in found if item)


def short(value, limit=240):
    text = WS.sub(" ", value.strip())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def registry_categories(raw):
    result = []
    for item in raw["categories"]:
        category_id = str(item["category_id"]).strip()
        name = str(item.get("name") or "").strip() or category_id
        result.append(
            {
                "category_id": category_id,
                "name": name,
                "description": str(item.get("description") or "").strip(),
                "path": [str(part).strip() for part in item.get("path") or []],
            }
        )
    return result


def corpus_entries(raw):
    return {
        str(item["category_id"]).strip(): {
            "description": str(item.get("description") or ""),
            "descriptions": [str(part) for part in item.get("descriptions") or []],
            "examples": [str(part) for part in item.get("examples") or []],
            "path": [str(part).strip() for part in item.get("path") or []],
        }
        for item in raw["categories"]
    }


def display_names(categories):
    counts = Counter(category["name"] for category in categories)

    def parts(category):
        path = list(category["path"])
        if not path or path[-1] != category["name"]:
            path.append(category["name"])
        return path

    all_parts = [parts(category) for category in categories]
    names = []
    for index, category in enumerate(categories):
        if counts[category["name"]] == 1:
            names.append(category["name"])
            continue
        path = all_parts[index]
        for depth in range(1, len(path) + 1):
            candidate = " / ".join(path[-depth:])
            if not any(
                other_index != index and " / ".join(other[-depth:]) == candidate
                for other_index, other in enumerate(all_parts)
            ):
                names.append(candidate)
                break
        else:
            raise ValueError("ambiguous display name")
    return names


def scope_key(category):
    if category["path"]:
        return category["path"][0]
    head = category["category_id"].split(":", 1)[-1]
    for ch in head:
        if ch.isalpha():
            return ch.upper()
    return head[:1]


class Task:
    def __init__(self, registry, corpus):
        self.categories = registry_categories(registry)
        self.corpus = corpus_entries(corpus)
        self.names = display_names(self.categories)
        self.ids = sorted((c["category_id"] for c in self.categories), key=len, reverse=True)
        self.docs = []
        for index, (category, display) in enumerate(zip(self.categories, self.names)):
            entry = self.corpus[category["category_id"]]
            summary = entry["description"] or category["description"]
            name_parts = [display, category["name"], *category["path"]]
            body_parts = [summary, *entry["descriptions"], *entry["examples"], *entry["path"]]
            self.docs.append(
                {
                    "index": index,
                    "choice_id": str(index + 1),
                    "category_id": category["category_id"],
                    "scope": scope_key(category),
                    "name": self.public(display),
                    "summary": short(self.public(summary)),
                    "name_text": normalize(" ".join(p for p in name_parts if p)),
                    "name_features": features(" ".join(p for p in name_parts if p)),
                    "body_features": features(" ".join(p for p in body_parts if p)),
                }
            )

    def public(self, value):
        for category_id in self.ids:
            value = value.replace(category_id, "[redacted-id]")
        return value

    def catalog(self):
        return "\n".join(f"{index + 1}|{name}" for index, name in enumerate(self.names))

    def search(self, field_name, table_name, scope=None):
        field = normalize(field_name)
        table = normalize(table_name)
        field_features = features(field)
        table_features = features(table)
        query = field_features | table_features

        def score(doc):
            value = 0.0
            if field == doc["name_text"]:
                value += 100.0
            elif field in doc["name_text"] or doc["name_text"] in field:
                value += 35.0
            value += 8.0 * len(field_features & doc["name_features"])
            value += 3.0 * len(table_features & doc["name_features"])
            value += 2.0 * len(query & doc["body_features"])
            return value, -doc["index"]

        docs = [doc for doc in self.docs if scope is None or doc["scope"] == scope]
        ranked = sorted(docs, key=score, reverse=True)[:5]
        return {"candidates": [{"choice_id": d["choice_id"], "name": d["name"], "summary": d["summary"]} for d in ranked]}

    def details(self, ids):
        out = []
        for choice_id in ids:
            doc = self.docs[int(choice_id) - 1]
            entry = self.corpus[doc["category_id"]]
            out.append(
                {
                    "choice_id": choice_id,
                    "name": self.public(self.names[int(choice_id) - 1]),
                    "description": self.public(entry["description"]),
                    "descriptions": [self.public(v) for v in entry["descriptions"]],
                }
            )
        return {"categories": out}

    def examples(self, ids, limit):
        out = []
        for choice_id in ids:
            doc = self.docs[int(choice_id) - 1]
            entry = self.corpus[doc["category_id"]]
            out.append(
                {
                    "choice_id": choice_id,
                    "name": self.public(self.names[int(choice_id) - 1]),
                    "examples": [self.public(v) for v in entry["examples"][:limit]],
                }
            )
        return {"categories": out}

    def browse(self):
        counts = {}
        for doc in self.docs:
            counts[doc["scope"]] = counts.get(doc["scope"], 0) + 1
        return {"groups": [{"scope_key": key, "category_count": count} for key, count in counts.items()]}


def rubric(grading):
    descriptions = grading.get("descriptions") or [""] * len(grading["levels"])
    return [[code, text] for code, text in zip(grading["levels"], descriptions)]


def permute(items, source_id):
    digest = hashlib.sha256(source_id.encode("utf-8")).digest()
    result = list(items)
    for index in range(len(result) - 1, 0, -1):
        swap = digest[index % len(digest)] % (index + 1)
        result[index], result[swap] = result[swap], result[index]
    return result


def legacy(task, grading, fields, record, source_id):
    ids = [c["category_id"] for c in task.categories]
    ground_truth = record["category_id"]
    base = [ground_truth] + [i for i in ids if i != ground_truth][:4]
    candidates = permute(base, source_id)
    metadata = {field: record.get(field, "") for field in fields}
    catalog = [[str(i + 1), name, task.categories[i]["description"]] for i, name in enumerate(task.names)]
    stage1_system = (
        "You are a leaf-category candidate retriever. Return exactly one JSON object "
        'with key "candidates". '
        "The value must contain exactly five unique choice ids from the catalog. "
        "Do not output Markdown, commentary, canonical category ids, or any other keys."
    )
    stage1_user = (
        "Retrieve five candidate leaf categories from this catalog:\n"
        + json.dumps(catalog, ensure_ascii=False)
        + "\nField metadata:\n"
        + compact(metadata)
    )
    stage1_answer = compact({"candidates": [str(ids.index(c) + 1) for c in candidates]})
    bundle = []
    for index, category_id in enumerate(candidates, start=1):
        entry = task.corpus[category_id]
        bundle.append(
            {
                "id": str(index),
                "name": task.names[ids.index(category_id)],
                "description": entry["description"],
                "descriptions": list(entry["descriptions"]),
                "examples": list(entry["examples"]),
            }
        )
    stage2_system = (
        "You are a leaf-category reranker. Return exactly one JSON object with "
        'keys "answer" and "level". '
        '"answer" must be one of the five candidate ids "1" through "5". '
        '"level" must be exactly one of the listed sensitivity level codes. '
        "Do not output Markdown, commentary, or any other keys."
    )
    stage2_user = (
        "Candidate bundle:\n"
        + compact(bundle)
        + "\nSensitivity levels:\n"
        + compact(rubric(grading))
        + "\nField metadata:\n"
        + compact(metadata)
    )
    stage2_answer = compact({"answer": str(candidates.index(ground_truth) + 1), "level": record["level"]})
    return {
        "candidates": candidates,
        "stage1": [stage1_system, stage1_user, stage1_answer],
        "stage2": [stage2_system, stage2_user, stage2_answer],
    }


def audit_key(record):
    field = normalize(record["field_name"])
    table = normalize(record["table_name"])
    class_sha = "a" * 64
    grading_sha = "b" * 64
    key = hashlib.sha256("\0".join([field + "\x1f" + table, class_sha, grading_sha]).encode()).hexdigest()
    target = hashlib.sha256("\0".join([record["category_id"], record["level"]]).encode()).hexdigest()
    return [key, target]


def main():
    data = json.loads((HERE / "grading-golden-input.json").read_text(encoding="utf-8"))
    demo = data["demo"]
    task = Task(demo["registry"], demo["corpus"])
    grading = demo["grading"]
    system = SYSTEM_PREAMBLE + compact(rubric(grading)) + "\nCatalog (choice_id|name):\n" + task.catalog()
    records = data["records"]
    clean = lambda v: WS.sub(" ", str(v).strip())
    out_records = []
    for index, record in enumerate(records):
        metadata = {field: clean(record[field]) for field in NATIVE_FIELDS}
        identity = "\x1f".join(["steel_demo"] + [clean(record[f]) for f in ("database_name", "table_name", "field_name")])
        source_id = str(uuid.uuid5(uuid.NAMESPACE_URL, identity))
        cleaned = dict(record, **metadata)
        out_records.append(
            {
                "source_id": source_id,
                "user": "Classify this field metadata:\n" + compact(metadata),
                "legacy": legacy(task, grading, demo["task"]["metadata_fields"], cleaned, source_id) if index < 12 else None,
                "audit": audit_key(cleaned),
            }
        )
    dumps = lambda value: json.dumps(value, ensure_ascii=False)
    searches = [dumps(task.search(field, table)) for field, table in data["queries"]]
    scopes = [key["scope_key"] for key in task.browse()["groups"]]
    scoped = [dumps(task.search(field, table, scope)) for field, table in data["queries"][:10] for scope in scopes]
    tricky = Task(data["tricky"]["registry"], data["tricky"]["corpus"])
    tricky_scopes = [key["scope_key"] for key in tricky.browse()["groups"]]
    goldens = {
        "demo": {
            "system": system,
            "records": out_records,
            "searches": searches,
            "scoped_searches": scoped,
            "details": dumps(task.details(["1", "32", "17", "5", "2"])),
            "examples": dumps(task.examples(["3", "12"], 2)),
            "browse": dumps(task.browse()),
        },
        "tricky": {
            "display_names": tricky.names,
            "searches": [dumps(tricky.search(field, table)) for field, table in data["queries"][60:]],
            "scoped_searches": [dumps(tricky.search("账户", "", scope)) for scope in tricky_scopes],
            "details": dumps(tricky.details(["1", "2", "3", "6"])),
            "examples": dumps(tricky.examples(["3", "4"], 5)),
            "browse": dumps(tricky.browse()),
        },
        "casefold": [[text, text.casefold(), normalize(text), sorted(features(text))] for text in data["casefold"]],
    }
    (HERE / "grading-goldens.json").write_text(json.dumps(goldens, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
