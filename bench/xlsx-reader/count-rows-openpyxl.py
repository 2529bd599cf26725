"""Bench child: openpyxl's read-only reader over every row of a workbook (cached values), the oracle
the reader is compared with for speed as for fidelity. Prints the row and cell counts.

    python bench/xlsx-reader/count-rows-openpyxl.py WORKBOOK.xlsx
"""

import json
import sys

import openpyxl


def main(path):
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = cells = 0
    for sheet in book.worksheets:
        for row in sheet.iter_rows(values_only=True):
            rows += 1
            cells += len(row)
    print(json.dumps({"reader": "openpyxl", "rows": rows, "cells": cells}))


if __name__ == "__main__":
    main(sys.argv[1])
