#!/usr/bin/env python3
"""python-host: a Python application showing its launch ad through liblaunchad (ctypes).

    host.py FILE [launchad play options...]

The ad draws into a pixel buffer the library keeps (no display needed: SDL's dummy drivers work
headless); each event is printed as "event NAME" ("event end completed" for the end), and the
host exits 0 after the end. LAUNCHAD_LIBRARY names the library (default: liblaunchad.so.0 on the
loader's path)."""
import ctypes
import os
import sys
import time


class Event(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_int), ("name", ctypes.c_char_p), ("t_ms", ctypes.c_int64), ("json", ctypes.c_char_p),
        ("quartile", ctypes.c_int), ("outcome", ctypes.c_int), ("outcome_name", ctypes.c_char_p),
        ("link", ctypes.c_char_p), ("error_code", ctypes.c_char_p), ("message", ctypes.c_char_p), ("shown_ms", ctypes.c_int64),
        # API 0.3: the event's own id and its typed fields (launchad.h).
        ("kind", ctypes.c_int), ("ad_id", ctypes.c_char_p), ("url", ctypes.c_char_p), ("reason", ctypes.c_char_p),
        ("sha256", ctypes.c_char_p), ("text", ctypes.c_char_p), ("bytes", ctypes.c_int64), ("count", ctypes.c_int64),
        ("duration_ms", ctypes.c_int64), ("width", ctypes.c_int), ("height", ctypes.c_int), ("flag", ctypes.c_int),
    ]


EVENT_ERROR = 20
EVENT_END = 28
RENDER_ENDED = 2
EventFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(Event))


def main(argv):
    if len(argv) < 2:
        print("usage: host.py FILE [launchad play options...]", file=sys.stderr)
        return 2
    lib = ctypes.CDLL(os.environ.get("LAUNCHAD_LIBRARY", "liblaunchad.so.0"))
    lib.launchad_create.restype = ctypes.c_void_p
    lib.launchad_create.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_int)]
    lib.launchad_last_usage_error.restype = ctypes.c_char_p
    lib.launchad_strerror.restype = ctypes.c_char_p
    for name in ("launchad_prepare", "launchad_attach_buffer", "launchad_present", "launchad_render", "launchad_destroy",
                 "launchad_set_event_callback"):
        getattr(lib, name).argtypes = None
    lib.launchad_prepare.argtypes = [ctypes.c_void_p, ctypes.c_double]
    lib.launchad_attach_buffer.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    lib.launchad_present.argtypes = [ctypes.c_void_p]
    lib.launchad_render.argtypes = [ctypes.c_void_p]
    lib.launchad_destroy.argtypes = [ctypes.c_void_p]
    lib.launchad_set_event_callback.argtypes = [ctypes.c_void_p, EventFn, ctypes.c_void_p]

    args = [b"play"] + [a.encode() for a in argv[1:]]
    error = ctypes.c_int(0)
    ad = lib.launchad_create(len(args), (ctypes.c_char_p * len(args))(*args), ctypes.byref(error))
    if not ad:
        print("host.py: %s" % lib.launchad_last_usage_error().decode(), file=sys.stderr)
        return 1

    def on_event(_user, event):
        e = event.contents
        if e.kind == EVENT_END:
            print("event end %s" % e.outcome_name.decode(), flush=True)
        elif e.kind == EVENT_ERROR:
            print("event error %s %s" % (e.error_code.decode(), e.message.decode()), flush=True)
        else:
            print("event %s" % e.name.decode(), flush=True)

    callback = EventFn(on_event)  # kept alive while the library may call it
    lib.launchad_set_event_callback(ad, callback, None)
    lib.launchad_prepare(ad, 5.0)
    lib.launchad_attach_buffer(ad, 640, 360)
    lib.launchad_present(ad)
    while lib.launchad_render(ad) != RENDER_ENDED:
        time.sleep(0.005)
    lib.launchad_destroy(ad)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
