#!/usr/bin/env python3
"""Key timing: sends key presses and releases through XTest at known times, then compares them with the stamps the
game saved in its replay (key_timing.sh runs both halves around the game).

  key_timing.py send EVENTS SEED > sends.txt
      Sends EVENTS key changes (press, release, press, ...; Left, Right, Z, X in turn: moves and rotations, never a
      drop) with random holds and gaps (15..90 ms and 15..120 ms, so they land at every phase of a frame), and
      prints one line per change: "SEND_S KEY ACTION SYNCED_S", SEND_S on CLOCK_MONOTONIC (the game's clock:
      glfwGetTime) just before the XTest request, SYNCED_S when the X server had handled it (XSync returned), with
      nothing but libX11 and libXtst (ctypes).
  key_timing.py compare sends.txt replay.json
      Matches the changes in order with the replay's inputs (stackrace-replay export --json: [time_us, buttons], one
      per change) and prints the stamping error of each: (stamp - send) minus the smallest such difference of the
      run (game time 0 is an unknown wall time; the earliest-stamped change defines it, so errors are >= 0 and
      measure how much later than the best case a change was stamped). Then p50 / p99 / max in ms, and the p99 of
      the XTest requests' round trips (SYNCED_S - SEND_S): how busy the X server was; and p99 / max over the
      changes whose round trip took under 1 ms (the X server's delay left out: what is left is the game's).
"""
import ctypes
import json
import random
import sys
import time

KEYS = ["Left", "Right", "z", "x"]


def send(events, seed):
    x11 = ctypes.CDLL("libX11.so.6")
    xtst = ctypes.CDLL("libXtst.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XStringToKeysym.restype = ctypes.c_ulong
    x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
    x11.XKeysymToKeycode.restype = ctypes.c_ubyte
    x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
    dpy = x11.XOpenDisplay(None)
    if not dpy:
        sys.exit("key_timing.py: cannot open the display")
    codes = {k: x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(k.encode())) for k in KEYS}
    rng = random.Random(seed)
    lines = []
    for i in range(events):
        key = KEYS[(i // 2) % len(KEYS)]
        press = i % 2 == 0
        time.sleep(rng.uniform(0.015, 0.120) if press else rng.uniform(0.015, 0.090))
        t = time.clock_gettime(time.CLOCK_MONOTONIC)
        xtst.XTestFakeKeyEvent(dpy, codes[key], 1 if press else 0, 0)
        x11.XSync(dpy, 0)  # the server has taken it (and sent the event on) before we go on
        synced = time.clock_gettime(time.CLOCK_MONOTONIC)
        lines.append(f"{t:.6f} {key} {'press' if press else 'release'} {synced:.6f}")
    x11.XCloseDisplay(dpy)
    print("\n".join(lines))


def percentile(sorted_values, p):
    # Nearest rank: the smallest value with at least p% of the values at or below it.
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def summary(label, diffs):
    base = min(diffs)
    errors = sorted((d - base) * 1000 for d in diffs)
    return (f"{label}: p50 {percentile(errors, 50):.1f} ms  p99 {percentile(errors, 99):.1f} ms  "
            f"max {errors[-1]:.1f} ms")


def compare(sends_file, replay_file):
    with open(sends_file) as f:
        rows = [line.split() for line in f if line.strip()]
    with open(replay_file) as f:
        inputs = json.load(f)["racers"][0]["inputs"]
    if len(inputs) < len(rows):
        sys.exit(f"key_timing.py: the replay holds {len(inputs)} inputs for {len(rows)} key changes sent "
                 "(keys lost: was the window focused?)")
    stamps = [inputs[i][0] / 1e6 for i in range(len(rows))]
    sent = [stamps[i] - float(r[0]) for i, r in enumerate(rows)]
    # How busy the X server was: the XTest request's round trip (a busy Xvfb takes milliseconds to get to it, and
    # that delay is in the errors too).
    trip = [(float(r[3]) - float(r[0])) * 1000 for r in rows]
    # The changes the X server handled at once (round trip under 1 ms): their errors are the game's alone.
    base = min(sent)
    quick = [sent[i] for i in range(len(rows)) if trip[i] < 1.0]
    quick_errors = sorted((d - base) * 1000 for d in quick)
    print(f"changes: {len(rows)}  " + summary("error", sent) +
          f"  (X server round trip p99 {percentile(sorted(trip), 99):.1f} ms; the {len(quick)} changes it handled "
          f"within 1 ms: p99 {percentile(quick_errors, 99):.1f} ms, max {quick_errors[-1]:.1f} ms)")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "send":
        send(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
