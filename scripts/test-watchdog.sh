#!/usr/bin/env bash
# Watches a running `swift test` and ends it when its log has been silent too long, so that a
# hung test fails the run within minutes, named, with its threads' stacks, instead of holding CI
# until its own time limit. Usage: test-watchdog.sh PID LOG [SILENT_SECONDS]
# The suite's slowest single test takes about a minute; the default allows four times that.
set -uo pipefail
pid=$1 log=$2 limit=${3:-240}
size() { stat -c %s "$log" 2>/dev/null || echo 0; }
# The processes under this run only (other runs on the machine are not ours to stop).
descendants() {
  local all=" $pid " grew=1
  while [ "$grew" -eq 1 ]; do
    grew=0
    while read -r child parent; do
      case "$all" in *" $parent "*) case "$all" in *" $child "*) ;; *) all="$all$child " grew=1 ;; esac ;; esac
    done < <(ps -e -o pid=,ppid=)
  done
  echo $all
}
xctests() {
  for p in $(descendants); do
    case "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)" in *.xctest*) echo "$p" ;; esac
  done
}
last=$(size) quiet=0
while kill -0 "$pid" 2>/dev/null; do
  sleep 5
  now=$(size)
  if [ "$now" != "$last" ]; then last=$now quiet=0; continue; fi
  quiet=$((quiet + 5))
  [ "$quiet" -lt "$limit" ] && continue
  started=$(grep -E "^Test Case '[^']+' started" "$log" | tail -1 | sed -E "s/^Test Case '([^']+)'.*/\1/")
  {
    echo "test: no output for ${limit} s; the test running: ${started:-unknown}. Its processes and threads:"
    ps -o pid,ppid,stat,etime,args -p "$(descendants | tr ' ' ',')" | cut -c1-200
    # Thread 1 (the main thread, where a test usually waits) first: gdb's `thread apply all`
    # starts from the newest thread, and the cut below fell before the main thread.
    for p in $(xctests); do
      if command -v gdb >/dev/null; then
        timeout 60 gdb -p "$p" -batch -ex "thread apply all -ascending bt 12" 2>/dev/null | grep -E "^(Thread|#)" | head -300
      fi
    done
  } >&2
  echo "test: no output for ${limit} s during ${started:-unknown}: stopped" >>"$log"
  # The test binary first, so that swift test reports it and the pipeline ends.
  for p in $(xctests); do kill -KILL "$p" 2>/dev/null; done
  sleep 5
  kill -TERM "$pid" 2>/dev/null
  exit 0
done
