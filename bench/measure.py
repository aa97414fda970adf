#!/usr/bin/env python3
"""Helpers for bench/play-vs-ffplay-mpv.sh (Python 3 standard library only).

  measure.py events FILE
      launchad's JSON-lines events -> "FIRST_FRAME_MS START_MS OUTCOME FRAMES DROPPED" ("-" when
      missing; FRAMES = frames_shown + frames_dropped of the `end` event).

  measure.py drops STDOUT STDERR
      another player's frame count and drops -> "FRAMES DROPPED": mpv's status line
      ("launchad-bench drops=N decoder_drops=M", the last one printed) or ffplay's -stats
      line (fd=N); FRAMES is "-" (neither says how many it decoded).

  measure.py threads OUT.json -- CMD ...
      runs CMD, samples the CPU time of each of its threads from /proc every 50 ms and
      writes {thread name: cpu seconds} plus the process's own rusage to OUT.json.
      Threads are grouped by name (llvmpipe-0 and llvmpipe-1 become llvmpipe-*).

  measure.py sdl-renderer
      which renderer SDL picks for a 1920x1080 window with launchad's flags (accelerated |
      present-vsync) on $DISPLAY, through ctypes: "NAME (GL renderer string if any)".

  measure.py report RUNS.tsv META.txt OUT.md
      medians per player, ratios launchad / each other player, first-frame times, as Markdown
      (printed and written to OUT.md).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time


def events(path):
    first = start = outcome = frames = dropped = None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                name = e.get("event")
                if name == "first_frame" and first is None:
                    first = e.get("t_ms")
                elif name == "start" and start is None:
                    start = e.get("t_ms")
                elif name == "end":
                    outcome = e.get("outcome")
                    if isinstance(e.get("frames_shown"), int) and isinstance(e.get("frames_dropped"), int):
                        frames = e["frames_shown"] + e["frames_dropped"]
                        dropped = e["frames_dropped"]
    except OSError:
        pass
    print(" ".join("-" if v is None else str(v) for v in (first, start, outcome, frames, dropped)))


def drops(out_path, err_path):
    text = ""
    for path in (out_path, err_path):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text += f.read() + "\n"
        except OSError:
            pass
    mpv = re.findall(r"launchad-bench drops=(\d+) decoder_drops=(\d+)", text)
    ffplay = re.findall(r"fd=\s*(\d+)", text)
    dropped = None
    if mpv:
        dropped = int(mpv[-1][0]) + int(mpv[-1][1])
    elif ffplay:
        dropped = int(ffplay[-1])
    print("-", "-" if dropped is None else dropped)


# ---------------------------------------------------------------- per-thread CPU

TICK = os.sysconf("SC_CLK_TCK")


def _thread_times(pid):
    """{tid: (name, cpu seconds)} for every live thread of pid."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", encoding="utf-8", errors="replace") as f:
                s = f.read()
        except OSError:
            continue
        # comm is in parentheses and may hold spaces; the fields after it are fixed.
        name = s[s.index("(") + 1:s.rindex(")")]
        rest = s[s.rindex(")") + 2:].split()
        utime, stime = int(rest[11]), int(rest[12])
        out[tid] = (name, (utime + stime) / TICK)
    return out


def threads(out_path, cmd):
    seen = {}
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    while True:
        for tid, v in _thread_times(p.pid).items():
            seen[tid] = v
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            break
        time.sleep(0.05)
    groups = {}
    for name, cpu in seen.values():
        key = re.sub(r"\d+$", "*", name)
        groups[key] = groups.get(key, 0.0) + cpu
    total_seen = sum(groups.values())
    result = {
        "cmd": cmd,
        "exit": os.waitstatus_to_exitcode(status),
        "rusage_cpu_s": round(ru.ru_utime + ru.ru_stime, 3),
        "maxrss_kb": ru.ru_maxrss,
        # Time a thread spent after its last sample is lost; the rest is "unattributed".
        "threads": {k: round(v, 3) for k, v in sorted(groups.items(), key=lambda kv: -kv[1])},
        "unattributed_s": round(ru.ru_utime + ru.ru_stime - total_seen, 3),
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result))


# ---------------------------------------------------------------- SDL renderer

def sdl_renderer():
    import ctypes
    sdl = ctypes.CDLL("libSDL2-2.0.so.0")

    class Info(ctypes.Structure):
        _fields_ = [("name", ctypes.c_char_p), ("flags", ctypes.c_uint32), ("num", ctypes.c_uint32),
                    ("formats", ctypes.c_uint32 * 16), ("max_w", ctypes.c_int), ("max_h", ctypes.c_int)]
    sdl.SDL_CreateWindow.restype = ctypes.c_void_p
    sdl.SDL_CreateRenderer.restype = ctypes.c_void_p
    sdl.SDL_CreateRenderer.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    sdl.SDL_GetRendererInfo.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    if sdl.SDL_Init(0x20) != 0:
        print("none (no display)")
        return
    w = sdl.SDL_CreateWindow(b"probe", 0, 0, 1920, 1080, 0)
    r = sdl.SDL_CreateRenderer(w, -1, 0x2 | 0x4)  # SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC
    if not r:
        print("none (no renderer)")
        return
    info = Info()
    sdl.SDL_GetRendererInfo(r, ctypes.byref(info))
    name = info.name.decode()
    extra = ""
    if name.startswith("opengl"):
        try:
            gl = ctypes.CDLL("libGL.so.1") if name == "opengl" else ctypes.CDLL("libGLESv2.so.2")
            gl.glGetString.restype = ctypes.c_char_p
            s = gl.glGetString(0x1F01)  # GL_RENDERER; SDL's context is current after creating the renderer
            extra = f" ({s.decode()})" if s else ""
        except OSError:
            pass
    print(f"{name}{extra}")
    sdl.SDL_DestroyRenderer(ctypes.c_void_p(r))
    sdl.SDL_Quit()


# ---------------------------------------------------------------- report

def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _fmt(x, digits=2):
    return "–" if x is None else f"{x:.{digits}f}"


def report(runs_path, meta_path, out_path):
    rows = []
    with open(runs_path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if line.strip():
                rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))

    def num(r, k):
        v = r.get(k, "-")
        try:
            return float(v)
        except ValueError:
            return None

    lines = []
    with open(meta_path, encoding="utf-8") as f:
        meta = f.read().rstrip("\n")
    lines.append(meta)
    play_sets = []
    for r in rows:
        if r.get("set", "play").startswith("play") and r.get("set", "play") not in play_sets:
            play_sets.append(r.get("set", "play"))
    ff = []
    for play_set in play_sets:
        ff += _play_set(lines, rows, play_set, num)
    _first_frames(lines, rows, ff, num)
    text = "\n".join(lines) + "\n"
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)


def _play_set(lines, rows, play_set, num):
    """Appends one clip's table and ratios; returns launchad's first-frame figures."""
    play_rows = [r for r in rows if r.get("set", "play") == play_set]
    players = []
    for r in play_rows:
        if r["player"] not in players:
            players.append(r["player"])
    stats = {}
    for p in players:
        rs = [r for r in play_rows if r["player"] == p]
        ok = [r for r in rs if r["ok"] == "1"]
        stats[p] = {
            "dropped": _median([num(r, "dropped") for r in ok]),
            "frames": _median([num(r, "frames") for r in ok]),
            "runs": len(rs), "ok": len(ok),
            "wall": _median([num(r, "wall_s") for r in ok]),
            "cpu": _median([(num(r, "user_s") or 0) + (num(r, "sys_s") or 0) for r in ok]),
            "user": _median([num(r, "user_s") for r in ok]),
            "sys": _median([num(r, "sys_s") for r in ok]),
            "rss": _median([num(r, "maxrss_kb") / 1024 if num(r, "maxrss_kb") else None for r in ok]),
            "ff": _median([num(r, "first_frame_ms") for r in ok]),
            "ff_all": [r.get("first_frame_ms", "-") for r in ok],
            "load": _median([num(r, "load1") for r in rs]),
        }

    lines.append("")
    lines.append(f"### {play_set}")
    lines.append("")
    lines.append("Medians over the successful runs (ok/runs); CPU = user + sys seconds; RSS = peak resident set (GNU time %M); "
                 "dropped = frames dropped (launchad: of frames shown + dropped).")
    lines.append("")
    lines.append("| player | ok/runs | wall s | CPU s (user+sys) | user s | sys s | peak RSS MiB | dropped | first frame ms | load avg |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for p in players:
        s = stats[p]
        dropped = _fmt(s["dropped"], 0) + (f" / {_fmt(s['frames'], 0)}" if s["frames"] is not None else "")
        lines.append(f"| {p} | {s['ok']}/{s['runs']} | {_fmt(s['wall'])} | {_fmt(s['cpu'])} | {_fmt(s['user'])} | "
                     f"{_fmt(s['sys'])} | {_fmt(s['rss'], 1)} | {dropped} | {_fmt(s['ff'], 0) if s['ff'] is not None else 'n/a'} | "
                     f"{_fmt(s['load'], 1)} |")
    base = [p for p in players if p.startswith("launchad")]
    others = [p for p in players if not p.startswith("launchad")]
    if base and others:
        lines.append("")
        lines.append("Ratios of the medians (below 1.00 means launchad uses less):")
        lines.append("")
        lines.append("| ratio | CPU | peak RSS | wall |")
        lines.append("|---|---|---|---|")
        pairs = [(b, o) for b in base for o in others]
        pairs += [("launchad", b) for b in base if b.startswith("launchad-")]
        for b, o in pairs:
            def ratio(k):
                x, y = stats[b][k], stats[o][k]
                return "–" if x is None or not y else f"{x / y:.2f}"
            lines.append(f"| {b} / {o} | {ratio('cpu')} | {ratio('rss')} | {ratio('wall')} |")
    return [(f"{p} ({play_set})", stats[p]) for p in players if stats[p]["ff"] is not None]


def _successes_by_player(rows, run_set):
    # Each player of one run set, in first-seen order, with its successful runs.
    players = []
    for r in rows:
        if r.get("set") == run_set and r["player"] not in players:
            players.append(r["player"])
    return [(p, [r for r in rows if r.get("set") == run_set and r["player"] == p and r["ok"] == "1"]) for p in players]


def _first_frames(lines, rows, ff, num):
    # Short first-frame-only runs (launchad --max-duration 1), e.g. faststart vs moov at the end.
    for p, ok in _successes_by_player(rows, "firstframe"):
        ff.append((p, {"ff": _median([num(r, "first_frame_ms") for r in ok]),
                       "ff_all": [r.get("first_frame_ms", "-") for r in ok]}))
    for p, ok in _successes_by_player(rows, "version"):
        walls = [num(r, "wall_s") for r in ok]
        ff.append((p + " (wall time, the floor)", {"ff": _median([w * 1000 for w in walls if w is not None]),
                                                   "ff_all": [f"{w * 1000:.0f}" for w in walls if w is not None]}))
    if ff:
        lines.append("")
        lines.append("launchad first frame (`first_frame` event's `t_ms`, ms since process start; target ≤ 150 ms, stretch 120 ms):")
        lines.append("")
        lines.append("| run set | median ms | every run |")
        lines.append("|---|---|---|")
        for p, s in ff:
            lines.append(f"| {p} | {_fmt(s['ff'], 0)} | {' '.join(s['ff_all'])} |")


def main(argv):
    if len(argv) >= 2 and argv[0] == "events":
        return events(argv[1])
    if len(argv) >= 4 and argv[0] == "threads" and argv[2] == "--":
        return threads(argv[1], argv[3:])
    if len(argv) == 3 and argv[0] == "drops":
        return drops(argv[1], argv[2])
    if argv == ["sdl-renderer"]:
        return sdl_renderer()
    if len(argv) == 4 and argv[0] == "report":
        return report(argv[1], argv[2], argv[3])
    sys.stderr.write(__doc__)
    sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
