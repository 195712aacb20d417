"""The dunst rows of Scripts/bench-freedesktop.py (--dunst): dunst on its own private bus, drawing
on a virtual X server (Xvfb), with one rule whose script plays the sound the way a dunst user's
does: a shell script that runs `mpv --no-video FILE`.

dunst 1.9 gives a script the notification's app name, summary, body, icon and urgency (arguments
and DUNST_* variables) but not its hints: the sound-file hint is not passed, so the script plays a
fixed file, the same one notiplay gets in the hint. mpv plays on its null output (--ao=null), as
notiplay's libmpv does with --audio null. Three signals, each timed when this script reads it:

- the window mapped: a MapNotify event for a top-level window (bench_freedesktop_x11);
- the script started: its first line writes "script" into a FIFO this script holds open;
- mpv's playback started: a small Lua script given to mpv writes "restart" into the same FIFO on
  mpv's `playback-restart` event, the libmpv event (MPV_EVENT_PLAYBACK_RESTART) notiplay's
  `playback` `started` comes from.

Between runs the notification is closed (CloseNotification with the id notify-send -p printed)
and the script waits for the window's UnmapNotify and for mpv's end (the script writes its process
id with its first word, and execs mpv).
"""

import os
import select
import shlex
import shutil
import signal
import subprocess
import time

from bench_center_process import WAIT, CouldNotRun, stop_process
from bench_freedesktop_bus import (
    PrivateBus, TimedAny, bus_places, gdbus_method, notify_send, read_id, wait_for_owner)
from bench_freedesktop_x11 import MapWatcher, X11Error

DUNSTRC = """# dunst's defaults, and one rule: every notification runs the sound script.
[global]
    font = Monospace 8
    startup_notification = false

[play_sound]
    summary = "*"
    script = {script}
"""

SOUND_SCRIPT = """#!/bin/sh
# What a dunst user's sound script does; the first line tells the benchmark it started, and its
# process id, which mpv keeps (exec).
printf 'script %s\\n' $$ > {fifo}
exec {mpv} --no-config --no-video --ao=null --no-terminal --script={lua} {sound}
"""

LUA = """-- Tells the benchmark when mpv's playback starts (the libmpv event notiplay's `started` is from).
local function say(word)
    local f = io.open({fifo}, "w")
    if f then f:write(word .. "\\n"); f:close() end
end
mp.register_event("playback-restart", function() say("restart") end)
"""


def missing():
    """What the dunst rows need and this machine lacks (an empty list when all is there)."""
    return [name for name in ("dunst", "Xvfb", "mpv") if shutil.which(name) is None]


class DunstRig:
    """Xvfb, a private bus and dunst on both, started in `folder`; `run()` times one notification."""

    def __init__(self, root, sound):
        self.root, self.sound = root, sound
        self.folder = os.path.join(root, "d")
        self.xvfb = self.dunst = self.bus = self.watcher = None
        self.fifo_fd = None
        self.players = set()  # the scripts' process ids (each becomes mpv): none is left running
        try:
            self.start()
        except BaseException:
            self.stop()
            raise

    def start(self):
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        self.start_x()
        self.bus = PrivateBus(os.path.join(self.root, "bus-d"))
        self.env = bus_places(self.root, "d", self.bus)
        self.fifo = os.path.join(self.folder, "signal.fifo")
        os.mkfifo(self.fifo)
        self.fifo_fd = os.open(self.fifo, os.O_RDWR | os.O_NONBLOCK)  # a writer of its own: never EOF
        self.pending = b""
        lua = os.path.join(self.folder, "signal.lua")
        with open(lua, "w") as f:
            f.write(LUA.format(fifo='"' + self.fifo.replace("\\", "\\\\").replace('"', '\\"') + '"'))
        script = os.path.join(self.folder, "play-sound.sh")
        with open(script, "w") as f:
            f.write(SOUND_SCRIPT.format(fifo=shlex.quote(self.fifo), mpv=shlex.quote(shutil.which("mpv")),
                                        lua=shlex.quote(lua), sound=shlex.quote(self.sound)))
        os.chmod(script, 0o755)
        config = os.path.join(self.folder, "dunstrc")
        with open(config, "w") as f:
            f.write(DUNSTRC.format(script=script))
        self.errors = os.path.join(self.folder, "dunst-output.txt")
        dunst_env = dict(self.env, DISPLAY=f":{self.display}")
        with open(self.errors, "w") as out:
            self.dunst = subprocess.Popen(["dunst", "-config", config], env=dunst_env, stdin=subprocess.DEVNULL,
                                          stdout=out, stderr=subprocess.STDOUT)
        wait_for_owner(self.env, "dunst", lambda: self.dunst.poll() is None)
        self.id_file = os.path.join(self.folder, "id.txt")

    def start_x(self):
        """Xvfb on a display it picks (-displayfd), no access control, no TCP; and the watcher."""
        read_end, write_end = os.pipe()
        with open(os.path.join(self.folder, "xvfb-stderr.txt"), "w") as errors:
            self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-ac", "-nolisten", "tcp",
                                          "-screen", "0", "1280x800x24"], pass_fds=[write_end],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
        os.close(write_end)
        number = b""
        deadline = time.monotonic() + WAIT
        try:
            while not number.endswith(b"\n"):
                if not select.select([read_end], [], [], max(0, deadline - time.monotonic()))[0]:
                    raise CouldNotRun("Xvfb did not say its display number in time")
                chunk = os.read(read_end, 64)
                if not chunk:
                    raise CouldNotRun("Xvfb ended without a display (see its standard error)")
                number += chunk
        finally:
            os.close(read_end)
        self.display = int(number)
        try:
            self.watcher = MapWatcher(self.display)
        except (OSError, X11Error) as error:
            raise CouldNotRun(f"cannot watch Xvfb's windows on :{self.display}: {error}")

    def signals(self):
        """The words the FIFO holds now."""
        try:
            self.pending += os.read(self.fifo_fd, 4096)
        except BlockingIOError:
            pass
        *lines, self.pending = self.pending.split(b"\n")
        words = []
        for line in lines:
            word, _, pid = line.decode().partition(" ")
            if pid.isdigit():
                self.players.add(int(pid))
            words.append(word)
        return words

    def run(self, tag, record):
        """One notify-send with the sound-file hint to dunst: its exit, the window mapped, the script
        started, mpv's playback started; then the notification closed and mpv's end awaited."""
        summary = f"Build done {tag}"
        timed = TimedAny(notify_send(summary, self.sound, print_id=True), self.env, stdout=self.id_file)
        seen = {}
        deadline = time.monotonic() + WAIT
        while timed.result is None or any(k not in seen for k in ("map", "script", "restart")):
            left = deadline - time.monotonic()
            watched = [self.watcher, self.fifo_fd] + ([timed.fd] if timed.result is None else [])
            ready = select.select(watched, [], [], max(0, left))[0] if left > 0 else []
            now = time.monotonic()
            if not ready:
                raise CouldNotRun(f"dunst: not seen within {WAIT} s: "
                                  f"{[k for k in ('map', 'script', 'restart') if k not in seen]} ({self.output()})")
            if self.watcher in ready:
                for kind, _ in self.watcher.readable():
                    seen.setdefault(kind, now)
            if self.fifo_fd in ready:
                for word in self.signals():
                    seen.setdefault(word, now)
            if timed.fd in ready:
                timed.readable()
        start, end, _, status = timed.result
        if status != 0:
            raise CouldNotRun(f"notify-send to dunst exited with status {status}")
        if record:
            record.add("d-ns", end - start)
            for row, key in (("d-map", "map"), ("d-script", "script"), ("d-restart", "restart")):
                record.add(row, seen[key] - start)
        subprocess.run(gdbus_method("CloseNotification", read_id(self.id_file)), env=self.env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=WAIT, check=True)
        deadline = time.monotonic() + WAIT
        while "unmap" not in seen:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.watcher], [], [], left)[0]:
                raise CouldNotRun(f"dunst: the window was not unmapped after CloseNotification ({self.output()})")
            for kind, _ in self.watcher.readable():
                seen.setdefault(kind, 0)
        while self.running_players():  # mpv plays the file to its end (2 s for the chime)
            if time.monotonic() > deadline:
                raise CouldNotRun(f"dunst's script: mpv still runs {WAIT} s after it started")
            time.sleep(0.02)
        self.signals()

    def running_players(self):
        """The scripts' processes still running (not gone, not a zombie), whose command line is still
        this benchmark's mpv (a process id is not taken for another process's)."""
        running = set()
        for pid in self.players:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    state = f.read().rpartition(")")[2].split()[0]
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    ours = self.folder.encode() in f.read()
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
            if state != "Z" and ours:
                running.add(pid)
        self.players = running
        return running

    def output(self):
        with open(self.errors, errors="replace") as f:
            lines = [line for line in f.read().splitlines() if "No icon found" not in line]
        return "dunst's output: " + (" | ".join(lines[-5:]) or "(nothing)")

    def stop(self):
        """Stops dunst, the bus and Xvfb (each only if it was started)."""
        if self.watcher:
            self.watcher.close()
        if self.fifo_fd is not None:
            self.signals()  # the process ids of scripts started since the last run
            for pid in self.running_players():
                try:
                    os.kill(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for process, name in ((self.dunst, "dunst"), (self.bus, None), (self.xvfb, "Xvfb")):
            if process is None:
                continue
            if name is None:
                process.stop()
            elif process.returncode is None:
                process.returncode = stop_process(process.pid, name)
        if self.fifo_fd is not None:
            os.close(self.fifo_fd)
            self.fifo_fd = None
