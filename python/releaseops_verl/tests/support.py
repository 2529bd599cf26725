"""A small task bundle on disk for the unit tests (five leaves, two levels), hashed like the real one."""

import hashlib
import json
import os
import tempfile

REGISTRY = {
    "categories": [
        {"category_id": "A1-1", "name": "钢种成分设计", "description": "合金成分", "path": ["研发数据域", "产品研发"]},
        {"category_id": "A1-2", "name": "新品试制", "description": "试制数据", "path": ["研发数据域", "产品研发"]},
        {"category_id": "B4-1", "name": "生产实绩", "description": "卷重与产量 (id B4-1)", "path": ["生产数据域", "生产实绩"]},
        {"category_id": "C5-1", "name": "员工基本信息", "description": "姓名与工号", "path": ["管理数据域", "人力资源"]},
        {"category_id": "C5-2", "name": "员工敏感个人信息", "description": "身份证号", "path": ["管理数据域", "人力资源"]},
    ]
}
CORPUS = {
    "categories": [
        {"category_id": item["category_id"], "name": item["name"], "description": item["description"],
         "descriptions": ["more about " + item["name"]], "examples": ["example one", "example two", "example three"],
         "path": item["path"]}
        for item in REGISTRY["categories"]
    ]
}
GRADING = {"levels": ["L1", "L2"], "descriptions": ["public", "internal"], "gt_field": "data_level"}


def write_bundle(enable_thinking=False, corrupt=None, **fields):
    """Writes registry, corpus, grading and task.json into a fresh directory; returns task.json's path.
    ``fields`` are added to task.json (``open_think``, ``generation_prefill``)."""
    directory = tempfile.mkdtemp(prefix="releaseops-verl-")
    entries = {}
    for name, value in (("registry", REGISTRY), ("corpus", CORPUS), ("grading", GRADING)):
        data = json.dumps(value, ensure_ascii=False).encode("utf-8")
        with open(os.path.join(directory, name + ".json"), "wb") as handle:
            handle.write(data + (b" " if corrupt == name else b""))
        entries[name] = {"path": name + ".json", "sha256": hashlib.sha256(data).hexdigest()}
    bundle = {
        "format": "releaseops-verl-task-v1",
        "trajectory_format": "qwen3.5-native-tools-v2",
        "enable_thinking": enable_thinking,
        "registry": entries["registry"],
        "corpus": entries["corpus"],
        "task_config": None,
        "metadata_fields": ["field_name", "table_name", "field_description", "table_description"],
        "task_name": "data_classification",
        "datasets": {"demo": {"grading": entries["grading"]}},
        "tools": ["search_categories", "get_category_details", "get_category_examples", "browse_categories"],
    }
    bundle.update(fields)
    path = os.path.join(directory, "task.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(bundle, handle)
    return path
