#!/usr/bin/env python3
"""Splits the test suite into N shards of about equal time, by test class.

    swift test --skip-build list | scripts/test-shards.py N scripts/test-times.tsv [scripts/test-alone.txt]

Reads the tests (Module.Class/test, one a line, as `swift test list` prints them) on stdin and
prints N lines, each the classes of one shard as the test bundle takes them on its command line
(Module.Class,Module.Class,...). Classes are placed longest first, each into the shard
with the least time so far (LPT), from the seconds each class took in test-times.tsv (class, tab,
seconds); a class the file does not know counts 2 s a test. A class named in test-alone.txt (class,
tab, why) gets a process of its own, printed as a line of its own after the N shards."""
import re
import sys

shards = int(sys.argv[1])
known = {}
with open(sys.argv[2]) as f:
    for line in f:
        name, _, seconds = line.strip().partition("\t")
        if name and seconds:
            known[name] = float(seconds)

alone = set()
if len(sys.argv) > 3:
    with open(sys.argv[3]) as f:
        for line in f:
            name = line.split("\t")[0].strip()
            if name and not name.startswith("#"):
                alone.add(name)

tests = {}
for line in sys.stdin:
    line = line.strip()
    match = re.fullmatch(r"([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)/[A-Za-z0-9_]+", line)
    if match:
        key = (match.group(1), match.group(2))
        tests[key] = tests.get(key, 0) + 1

cost = {key: known.get(key[1], 2.0 * count) for key, count in tests.items() if key[1] not in alone}
bins = [[0.0, []] for _ in range(max(1, shards))]
for key in sorted(cost, key=lambda k: (-cost[k], k)):
    target = min(bins, key=lambda b: b[0])
    target[0] += cost[key]
    target[1].append(key)
for total, keys in bins:
    if keys:
        print(",".join(f"{m}.{c}" for m, c in sorted(keys)))
for m, c in sorted(key for key in tests if key[1] in alone):
    print(f"{m}.{c}")
