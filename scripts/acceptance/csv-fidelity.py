"""Python's csv module as the oracle for a delimited text file: prints its records as JSON.

    python csv-fidelity.py FILE ENCODING DELIMITER

ENCODING is a Python codec name (utf-8-sig, utf-16, big5, cp1252…); DELIMITER a single character.
"""

import csv
import json
import sys


def main(path, encoding, delimiter):
    with open(path, encoding=encoding, newline="") as handle:
        rows = [row for row in csv.reader(handle, delimiter=delimiter) if any(cell != "" for cell in row)]
    print(json.dumps(rows, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
