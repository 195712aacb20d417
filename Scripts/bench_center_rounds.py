"""Rows 1-4 of Scripts/bench-center.py, the timed rounds: the tagged copies of the payloads sent,
the Recorder that keeps each row's milliseconds, and one run of each kind: send to the card server
and its first frame (rows 1, 1b, 2, 2b), the media button's key and what the screen shows after it
(row 3), the headless key to playback started (row 3d), and mpv's first sample (rows 4, 4b).
"""

import json
import os
import re
import select
import shlex
import time

from bench_center_headless import HeadlessServer
from bench_center_process import MEMO_PAYLOAD, SMALL_PAYLOAD, WAIT, CouldNotRun, Timed


# MARK: Payloads


def tagged_payload(folder, source, tag, title, drop=()):
    """A copy of the payload file `source` in folder, its alert title set to `title` (which holds
    the run's tag), as clients write them (indented JSON); `drop` names top-level keys left out."""
    with open(source) as f:
        payload = json.load(f)
    for key in drop:
        payload.pop(key, None)
    payload["aps"]["alert"]["title"] = title
    path = os.path.join(folder, f"{tag}.apns")
    with open(path, "w") as f:
        json.dump(payload, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return path


# MARK: Rows 1-4: the card server's rounds


class Recorder:
    """Milliseconds per row, in the order rows were first recorded."""

    def __init__(self):
        self.values = {}

    def add(self, row, seconds):
        self.values.setdefault(row, []).append(seconds * 1000)


def dismiss(server):
    """Dismisses the shown card (d) and waits for the empty deck."""
    server.expect("empty", lambda text: "no notifications" in text)
    server.write(b"d")
    server.wait_for(["empty"])


def run_send(server, binary, env, folder, tag, record, rss, attachment=None):
    """One `send` to the card server, timed to its exit (row 1, or 1b with `attachment`) and to the
    card's first frame (row 2, or 2b); its peak memory kept under "small" or "memo"."""
    if attachment is None:
        title, template, rows, key = f"NagMe {tag}", SMALL_PAYLOAD, ("1", "2"), "small"
        shows = lambda text: title in text
        extra = []
    else:
        title, template, rows, key = f"Voice memo {tag}", MEMO_PAYLOAD, ("1b", "2b"), "memo"
        shows = lambda text: title in text and "▶" in text
        extra = ["--attach", attachment]
    payload = tagged_payload(folder, template, tag, title)
    server.expect("card", shows)
    timed = Timed([binary, "send", payload] + extra, env)
    server.wait_for(["card"], timed=timed)
    start, end, peak, _ = timed.result
    if record:
        record.add(rows[0], end - start)
        record.add(rows[1], server.seen["card"] - start)
        rss.setdefault(key, []).append(peak)
    dismiss(server)


PLAYING = "⏸"
DURATION_SHOWN = re.compile(r"\d:\d\d / \d:\d\d")


def run_play(server, binary, env, folder, tag, attachment, record):
    title = f"Voice memo {tag}"
    payload = tagged_payload(folder, MEMO_PAYLOAD, tag, title)
    server.expect("card", lambda text: title in text and "▶" in text)
    timed = Timed([binary, "send", payload, "--attach", attachment], env)
    deadline = time.monotonic() + WAIT
    while "card" not in server.seen:  # the key goes the moment the card's frame is read
        if time.monotonic() > deadline:
            raise CouldNotRun(f"the voice memo's card did not show; the screen:\n{server.screen.text()}")
        _, ready = server.pump(deadline - time.monotonic(), [] if timed.result else [timed.fd])
        if ready:
            timed.readable()
    server.expect("playing", lambda text: PLAYING in text)
    server.expect("loaded", lambda text: DURATION_SHOWN.search(text) is not None)
    key = server.write(b" ")
    server.wait_for(["playing"], timed=timed)
    try:
        server.wait_for(["loaded"], timeout=3.0)
    except CouldNotRun:
        # The press was taken (⏸), but the clock never showed the duration: the media did not
        # start. Counted and shown, not timed; the benchmark goes on.
        LOST_PRESSES.append(f"{tag}: ⏸ at {1000 * (server.seen['playing'] - key):.1f} ms after the key, then "
                            f"no duration for 3 s; the button now shows {'⏸' if PLAYING in server.screen.text() else '▶'}:\n"
                            + "\n".join(line for line in server.screen.text().split("\n") if line.strip()))
        server.seen.pop("loaded", None)
        server.tests.pop("loaded", None)
    start = timed.result[0]
    if record:
        record.add("3", server.seen["playing"] - start)
        record.add("3a", server.seen["playing"] - key)
        if "loaded" in server.seen:
            record.add("3b", server.seen["loaded"] - key)
            record.add("3c", server.seen["loaded"] - start)
    dismiss(server)


LOST_PRESSES = []  # presses of the media button after which the media never started


def run_headless_play(binary, env, folder, record):
    """Row 3d: a headless server restarted on the stored voice memo, the key fed after 1 s."""
    argv = [binary, "serve", "--headless", "--events", "jsonl", "--audio", "null", "--keys", "~1s space"]
    server = HeadlessServer(argv, env, folder)
    try:
        deadline = time.monotonic() + WAIT
        key = None
        while True:
            event = server.next_line(deadline)
            if event.get("event") == "mediaPlay":
                key = event["t"]
            if event.get("event") == "playback" and event.get("state") == "started":
                if key is None:
                    raise CouldNotRun("the headless server reported playback before the key's mediaPlay event")
                if record:
                    record.add("3d", event["t"] - key)
                break
            if event.get("event") == "error":
                raise CouldNotRun(f"the headless server reported an error: {event}")
    finally:
        server.stop()


def run_mpv(mpv, audio, fifo, env, record, row, script=None):
    """Rows 4 and 4b: spawn to the first bytes mpv's pcm output writes into the FIFO."""
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # before mpv: its open for writing succeeds at once
    try:
        if script:
            argv = [script, audio]
        else:
            argv = [mpv, "--no-config", "--no-video", "--ao=pcm", f"--ao-pcm-file={fifo}",
                    "--ao-pcm-waveheader=no", audio]
        timed = Timed(argv, env)
        first = None
        deadline = time.monotonic() + WAIT
        while timed.result is None or first is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CouldNotRun(f"no sample from {shlex.join(argv)} within {WAIT} s")
            watched = ([reader] if first is None or timed.result is None else []) + ([timed.fd] if timed.result is None else [])
            ready = select.select(watched, [], [], left)[0]
            now = time.monotonic()
            if reader in ready:
                try:
                    data = os.read(reader, 1 << 16)
                except BlockingIOError:
                    data = None
                if data and first is None:
                    first = now
                if data == b"" and first is not None:  # the end of what mpv wrote
                    os.close(reader)
                    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # no writer now: never readable
            if timed.fd in ready:
                timed.readable()
        if record:
            record.add(row, first - timed.result[0])
    finally:
        os.close(reader)
