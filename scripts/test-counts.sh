#!/usr/bin/env bash
# The closing line of scripts/test.sh from the log of a `swift test` run: every test case of the
# whole run counted (XCTest's own "Executed" lines are per suite, and a suite with skips words its
# line differently). A test that started and has no result line did not pass: the watchdog
# stopped it (scripts/test-watchdog.sh) or its process died; it counts as failed, named.
# Usage: test-counts.sh LOG
set -uo pipefail
log=$1
count() { grep -cE "$1" "$log" || true; }
passed=$(count "^Test Case '[^']+' passed \(")
failed=$(count "^Test Case '[^']+' failed \(")
skipped=$(count "^Test Case '[^']+' skipped \(")
# Test cases that started and never ended, in the order they started.
unfinished=$(grep -E "^Test Case '[^']+' (started|passed|failed|skipped)" "$log" | sed -E "s/^Test Case '([^']+)' ([a-z]+).*/\2 \1/" |
  awk '$1 == "started" { open[$2] = ++n; name[n] = $2; next } { delete open[$2] }
       END { for (i = 1; i <= n; i++) if (name[i] in open && open[name[i]] == i) print name[i] }')
if [ -n "$unfinished" ]; then
  while IFS= read -r t; do
    if grep -qE "^test: no output for .* during $t: stopped" "$log"; then
      echo "test: $t was stopped by the watchdog: counted as failed" >&2
    else
      echo "test: $t started and never finished: counted as failed" >&2
    fi
  done <<<"$unfinished"
  failed=$((failed + $(printf '%s\n' "$unfinished" | wc -l)))
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
