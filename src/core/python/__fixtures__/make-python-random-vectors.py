"""Writes python-random-vectors.json: CPython random.Random draws that core/python must reproduce.

Run with any CPython 3.9+: python3 make-python-random-vectors.py > python-random-vectors.json
"""
import json
import random
import sys

SEEDS = [0, 1, 42, 101, 202, 303, 404, -7, 4190, 9999, 2**31 - 1, 2**32, 2**32 + 5, 2**40 + 123, 2**53 - 1, 12345678901234567890]

cases = []
for seed in SEEDS:
    rng = random.Random(seed)
    u32 = [rng.getrandbits(32) for _ in range(5)]
    rng = random.Random(seed)
    ops = []
    for n in [1, 2, 3, 7, 10, 100, 1000, 9000, 2**31, 2**32 - 1, 2**32 + 1, 2**45 + 3]:
        ops.append(["randbelow", n, rng._randbelow(n)])
    for a, b in [(1, 99), (100, 999), (1000, 9999), (4, 7), (2, 4), (-50, 50), (0, 0)]:
        ops.append(["randint", [a, b], rng.randint(a, b)])
    for k in [1, 5, 31, 32, 33, 48, 53]:
        ops.append(["getrandbits", k, rng.getrandbits(k)])
    ops.append(["choice", [12, 24, 36], rng.choice([12, 24, 36])])
    items = list(range(20))
    rng.shuffle(items)
    ops.append(["shuffle", 20, items])
    ops.append(["random", None, rng.random()])
    big = rng.getrandbits(100)
    ops.append(["getrandbits_big", 100, str(big)])
    cases.append({"seed": str(seed), "u32": u32, "ops": ops})

# Long runs cross several 624-word generations of the twist.
long_runs = []
for seed in [0, 42, 2**32 + 5]:
    rng = random.Random(seed)
    draws = [rng.getrandbits(32) for _ in range(2500)]
    long_runs.append({"seed": str(seed), "every_97th": draws[::97], "last": draws[-1]})

json.dump({"python": sys.version.split()[0], "cases": cases, "long_runs": long_runs}, sys.stdout, indent=1)
sys.stdout.write("\n")
