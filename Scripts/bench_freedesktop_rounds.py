"""The notiplay runs of Scripts/bench-freedesktop.py: a client's Notify to the card server on its
pseudo terminal (the card's first frame, the ⏸ frame, the clock showing the duration), the same
with the sound-file hint to a headless server whose event lines are read as they come (arrived,
mediaPlay, playback started), and the clients' floors (processes timed to their exit).
"""

import json
import os
import select
import subprocess
import time

from bench_center_process import WAIT, CouldNotRun
from bench_center_rounds import DURATION_SHOWN, PLAYING, dismiss
from bench_freedesktop_bus import TimedAny, gdbus_method, notify_send, read_id

CLOCK_WAIT = 3.0  # seconds the card's clock may take to show the duration before the run counts as lost
LOST = []  # runs whose clock never showed the duration (the media did not start), for the report


def run_card(server, env, argv, title, record, rows, sound):
    """argv (a client) sends `title` to the card server; records spawn -> exit and -> the first frame
    showing the title under rows[0] and rows[1]; with `sound`, -> the ⏸ frame (rows[2]) and -> the
    first frame whose clock shows the duration (rows[3]): the card's first position event from the
    engine, which comes as rendering starts. The card is dismissed (d) after, the deck empty."""
    server.expect("card", lambda text: title in text)
    if sound:
        server.expect("playing", lambda text: title in text and PLAYING in text)
        server.expect("clock", lambda text: title in text and DURATION_SHOWN.search(text) is not None)
    timed = TimedAny(argv, env)
    server.wait_for(["card", "playing"] if sound else ["card"], timed=timed)
    start, end, _, status = timed.result
    if status != 0:
        raise CouldNotRun(f"{argv[0]} exited with status {status}")
    if sound:
        try:
            server.wait_for(["clock"], timeout=CLOCK_WAIT)
        except CouldNotRun:
            LOST.append(f"{title}: ⏸ shown, no duration on the clock within {CLOCK_WAIT:g} s")
            server.tests.pop("clock", None)
    if record:
        record.add(rows[0], end - start)
        record.add(rows[1], server.seen["card"] - start)
        if sound:
            record.add(rows[2], server.seen["playing"] - start)
            if "clock" in server.seen:
                record.add(rows[3], server.seen["clock"] - start)
    dismiss(server)


class EventReader:
    """The headless server's standard output, read as it comes: each line parsed as JSON and kept
    with the time select() returned for the read that brought it. `offsets` keeps every event's
    read time minus its "t" (the server's seconds since its start): their minimum is the closest
    bound on the server clock's start in this script's clock (an event is never read before it is
    written), so `t + min(offsets)` maps an event's own time onto time.monotonic()."""

    def __init__(self, server):
        self.server = server
        self.fd = server.process.stdout.fileno()
        self.buffer = b""
        self.offsets = []

    def read(self, timeout):
        """Waits up to timeout for output; returns [(read time, event)] (empty on timeout)."""
        if not select.select([self.fd], [], [], max(0.0, timeout))[0]:
            return []
        now = time.monotonic()
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            raise CouldNotRun(f"the headless server ended its output ({self.server.stderr()})")
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        events = [json.loads(line) for line in lines if line.strip()]
        for event in events:
            if event.get("event") == "error":
                raise CouldNotRun(f"the headless server reported an error: {event}")
            self.offsets.append(now - event["t"])
        return [(now, event) for event in events]

    def until(self, test, what):
        """Reads until an event passes test; returns (read time, event)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            for now, event in self.read(deadline - time.monotonic()):
                if test(event):
                    return now, event
        raise CouldNotRun(f"the headless server: no {what} within {WAIT} s ({self.server.stderr()})")


def run_headless(reader, env, sound, title, id_file, record, raw):
    """notify-send with the sound-file hint to the headless server: spawn -> the `arrived`,
    `mediaPlay` and `playback` `started` lines read (rows h-arrived, h-play, h-started), mediaPlay ->
    started on the server's clock (h-engine); the events' own times kept in `raw` (mapped onto this
    script's clock at the end). Then waits for the sound's end and closes the notification
    (CloseNotification, untimed) so that every run meets an empty deck."""
    timed = TimedAny(notify_send(title, sound, print_id=True), env, stdout=id_file)
    seen = {}
    deadline = time.monotonic() + WAIT
    while timed.result is None or "started" not in seen:
        if time.monotonic() > deadline:
            raise CouldNotRun(f"the headless server: not seen within {WAIT} s: "
                              f"{[k for k in ('arrived', 'mediaPlay', 'started') if k not in seen]}")
        watched = [reader.fd] + ([timed.fd] if timed.result is None else [])
        ready = select.select(watched, [], [], max(0.0, deadline - time.monotonic()))[0]
        if reader.fd in ready:
            for now, event in reader.read(0):
                name = event.get("event")
                if name == "playback" and event.get("state") == "started":
                    name = "started"
                if name in ("arrived", "mediaPlay", "started") and name not in seen:
                    seen[name] = (now, event["t"])
        if timed.fd in ready:
            timed.readable()
    start, end, _, status = timed.result
    if status != 0:
        raise CouldNotRun(f"notify-send to the headless server exited with status {status}")
    if any(k not in seen for k in ("arrived", "mediaPlay")):
        raise CouldNotRun(f"the headless server started playback without arrived and mediaPlay lines: {seen}")
    if record:
        record.add("h-ns", end - start)
        record.add("h-arrived", seen["arrived"][0] - start)
        record.add("h-play", seen["mediaPlay"][0] - start)
        record.add("h-started", seen["started"][0] - start)
        record.add("h-engine", seen["started"][1] - seen["mediaPlay"][1])
        raw.append((start, seen["arrived"][1], seen["started"][1]))
    reader.until(lambda e: e.get("event") == "playback" and e.get("state") in ("ended", "stopped"),
                 "end of the sound")
    subprocess.run(gdbus_method("CloseNotification", read_id(id_file)), env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=WAIT, check=True)
    reader.until(lambda e: e.get("event") == "removed", "removed line after CloseNotification")


def run_floor(argv, env, record, row, expect_failure=False):
    """One client process timed from spawn to exit (a floor: what the client costs by itself)."""
    timed = TimedAny(argv, env)
    start, end, _, status = timed.wait()
    if (status != 0) != expect_failure:
        raise CouldNotRun(f"{' '.join(argv)} exited with status {status}"
                          + (" (a failure was expected: nobody owns the name)" if expect_failure else ""))
    if record:
        record.add(row, end - start)
