#!/usr/bin/env python3
"""One run of an embedding host (or `launchad play`) for bench/embedded-hosts.sh (Python 3
standard library only).

  host-run.py XVFB_PID -- CMD ...

Starts CMD, reads its output line by line, and prints one JSON object:
  first_frame_ms   ms from starting CMD to its first-frame line ("event first_frame", or
                   launchad's {"event":"first_frame"...} JSON line)
  cpu_pct          the host process's CPU (user + system, all its threads) between its
                   first-frame line and its end line, in % of one core
  xvfb_pct         the X server's CPU over the same interval (what the host's drawing costs it)
  play_s           seconds between the two lines
  outcome          the end's outcome ("completed", ...), or null when the run failed
  renderer         launchad's `window` event's renderer (its own window only), else null
CPU times are read from /proc/PID/stat at each of the two lines.
"""
import json
import os
import subprocess
import sys
import threading
import time

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    except (OSError, IndexError, ValueError):
        return None


def outcome_of(line):
    if line.startswith("event end "):
        return line.split()[2]
    if line.startswith("{") and '"event":"end"' in line:
        try:
            return json.loads(line).get("outcome")
        except ValueError:
            return None
    return None


def main(argv):
    xvfb = int(argv[0])
    cmd = argv[argv.index("--") + 1:]
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    marks = {}
    result = {"first_frame_ms": None, "cpu_pct": None, "xvfb_pct": None, "play_s": None, "outcome": None, "renderer": None}
    killer = threading.Timer(60, p.kill)
    killer.start()
    for raw in p.stdout:
        line = raw.strip()
        now = time.monotonic()
        if "first_frame" not in marks and (line == "event first_frame" or '"event":"first_frame"' in line):
            marks["first_frame"] = (now, cpu_seconds(p.pid), cpu_seconds(xvfb))
            result["first_frame_ms"] = round((now - start) * 1000, 1)
        if line.startswith("{") and '"event":"window"' in line:
            try:
                result["renderer"] = json.loads(line).get("renderer")
            except ValueError:
                pass
        outcome = outcome_of(line)
        if outcome and "end" not in marks:
            marks["end"] = (now, cpu_seconds(p.pid), cpu_seconds(xvfb))
            result["outcome"] = outcome
    p.wait()
    killer.cancel()
    if "first_frame" in marks and "end" in marks:
        (t0, c0, x0), (t1, c1, x1) = marks["first_frame"], marks["end"]
        if t1 > t0 and None not in (c0, c1, x0, x1):
            result["play_s"] = round(t1 - t0, 2)
            result["cpu_pct"] = round(100 * (c1 - c0) / (t1 - t0), 1)
            result["xvfb_pct"] = round(100 * (x1 - x0) / (t1 - t0), 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
