#!/usr/bin/env bash
# Writes scripts/test-times.tsv (each test class and the seconds its tests took) from the log
# of a whole run (scripts/test.sh's output), for scripts/test-shards.sh to share the classes out.
#   scripts/test-times.sh LOG
set -euo pipefail
cd "$(dirname "$0")/.."
grep -E "^Test Case '.*' (passed|failed|skipped) \(" "${1:?usage: test-times.sh LOG}" |
  sed -E "s/^Test Case '([^.]+)\.[^']+' [a-z]+ \(([0-9.]+) seconds\)/\1 \2/" |
  awk '{ t[$1] += $2 } END { for (c in t) printf "%s\t%.1f\n", c, t[c] }' | sort >scripts/test-times.tsv
echo "test-times: $(wc -l <scripts/test-times.tsv) classes" >&2
