#!/usr/bin/python3
"""A window manager that holds windows back, for the tests of launchad's deadlines.

    holding_wm.py never     takes every map request and never maps the window
    holding_wm.py SECONDS   maps each window SECONDS after it asked to be mapped

It redirects the root's substructure (so the X server hands map and configure requests to it
instead of acting on them), grants configure requests, and says "ready" on stdout once it
holds the screen. It names no _NET_SUPPORTING_WM_CHECK window: SDL then takes it for no
window manager at all and sets the input focus itself, on a window that is not mapped.
Needs python3-xlib.
"""
import select
import sys
import time

from Xlib import X, display, error

delay = None if sys.argv[1] == "never" else float(sys.argv[1])
d = display.Display()
root = d.screen().root
caught = error.CatchError(error.BadAccess)
root.change_attributes(event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask, onerror=caught)
d.sync()
if caught.get_error():
    sys.exit("another window manager holds the screen")
print("ready", flush=True)

due = []  # (when, window) to map
while True:
    timeout = None
    if due:
        timeout = max(0.0, min(when for when, _ in due) - time.monotonic())
    if d.pending_events() == 0:
        select.select([d], [], [], timeout)
    now = time.monotonic()
    for when, window in [item for item in due if item[0] <= now]:
        due.remove((when, window))
        window.map(onerror=error.CatchError())
        d.flush()
    while d.pending_events():
        e = d.next_event()
        if e.type == X.MapRequest and delay is not None:
            due.append((time.monotonic() + delay, e.window))
        elif e.type == X.ConfigureRequest:
            values = {}
            for name, bit in (("x", X.CWX), ("y", X.CWY), ("width", X.CWWidth), ("height", X.CWHeight)):
                if e.value_mask & bit:
                    values[name] = getattr(e, name)
            if values:
                e.window.configure(onerror=error.CatchError(), **values)
            d.flush()
