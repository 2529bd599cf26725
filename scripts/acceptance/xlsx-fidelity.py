"""Compares our workbook reader's cells with openpyxl's, cell by cell.

    python xlsx-fidelity.py WORKBOOK.xlsx ROWS.jsonl

ROWS.jsonl holds one JSON object a row as our reader gives it: {"sheet", "rowNumber", "cells"}.
openpyxl (read-only mode, cached values) is the oracle: a string cell must be the same text, a number
its Python text (int when whole), a date its ISO text. Prints a JSON summary; exits 1 on any mismatch
or on any U+FFFD in our cells that openpyxl does not have.
"""

import datetime
import json
import sys

import openpyxl


def oracle_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0):
            return value.date().isoformat()
        return value.isoformat(timespec="seconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return value.isoformat(timespec="seconds")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def main(workbook_path, rows_path):
    ours = {}
    replacement_ours = 0
    with open(rows_path, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            ours[(row["sheet"], row["rowNumber"])] = row["cells"]
            replacement_ours += sum(cell.count("\ufffd") for cell in row["cells"])
    book = openpyxl.load_workbook(workbook_path, read_only=True, data_only=True)
    cells = mismatches = replacement_oracle = rows = 0
    examples = []
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            texts = [oracle_text(cell.value) for cell in row if cell.__class__.__name__ != "EmptyCell"]
            if not row or all(text == "" for text in texts):
                continue
            number = row[0].row
            rows += 1
            mine = ours.pop((sheet.title, number), [])
            for cell in row:
                if cell.__class__.__name__ == "EmptyCell":
                    continue
                expected = oracle_text(cell.value)
                got = mine[cell.column - 1] if cell.column - 1 < len(mine) else ""
                cells += 1
                replacement_oracle += expected.count("\ufffd")
                if expected != got:
                    mismatches += 1
                    if len(examples) < 10:
                        examples.append({"sheet": sheet.title, "cell": cell.coordinate, "openpyxl": expected, "ours": got})
    extra = [key for key, value in ours.items() if any(value)]
    summary = {
        "workbook": workbook_path,
        "rows": rows,
        "cells": cells,
        "mismatches": mismatches,
        "rows_only_ours": len(extra),
        "ufffd_ours": replacement_ours,
        "ufffd_openpyxl": replacement_oracle,
        "examples": examples,
    }
    print(json.dumps(summary, ensure_ascii=False))
    ok = mismatches == 0 and not extra and replacement_ours == replacement_oracle
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
